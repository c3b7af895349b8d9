"""Multiclass classification from binary classifiers (chapter 11): one-vs-one,
one-vs-rest and error-correcting output codes, all as coding matrices.

A coding matrix :math:`M \\in \\{-1, 0, +1\\}^{N \\times L}` assigns each of the
:math:`N` classes a codeword of length :math:`L`; column :math:`l` defines a
binary problem (classes with :math:`+1` against classes with :math:`-1`,
classes with 0 left out), and a new sample is given the class whose codeword
is nearest to the :math:`L` binary outputs. One-vs-rest is the code with
:math:`+1` on the diagonal and :math:`-1` elsewhere; one-vs-one the ternary
code with one column per pair of classes. :class:`ECOCClassifier` implements
them all, with Hamming, Euclidean and loss-based decoding written from scratch, and is
checked against scikit-learn's ``OneVsRestClassifier``,
``OneVsOneClassifier`` and ``OutputCodeClassifier`` in ``tests/test_multiclass.py``.
"""

from .lda import ECOCClassifier, code_separation, coding_matrix

# The code lives with the rest of chapter 11 in mlcore/lda/_multiclass.py;
# this module is its public face, documented on the API page.
__all__ = ["coding_matrix", "code_separation", "ECOCClassifier"]
