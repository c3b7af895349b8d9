"""mlcore: the companion library of *Learning Theory and Model Selection*.

One module per topic; each chapter of the book calls into one of them.

========================  ==================================================
module                    topic
========================  ==================================================
:mod:`mlcore.linear`      logistic regression by gradient descent (ch. 1)
:mod:`mlcore.widgets`     the pattern of every interactive figure
========================  ==================================================

Public names of every module are re-exported at the top level.
"""

__version__ = "0.1.0"
