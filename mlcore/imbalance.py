"""Learning with imbalanced classes (chapter 11): rescaling the threshold,
undersampling (with an EasyEnsemble-style average of undersampled learners,
so that no sample is wasted, and the probability correction that turns
undersampling back into rescaling), oversampling by interpolation (SMOTE),
and the threshold that maximizes F1.

``smote`` draws the same synthetic points as ``imblearn.over_sampling.SMOTE``
for the same integer seed, and ``random_undersample`` the same class counts
as ``RandomUnderSampler`` (checked in ``tests/test_imbalance.py``).
"""

from .lda import (REMEDIES, EasyEnsembleClassifier, best_f1_threshold, random_undersample,
                  remedy_study, rescale_threshold, smote, undersampling_correction)

# The code lives with the rest of chapter 11 in mlcore/lda/_imbalance.py and
# _imbalance_study.py; this module is its public face, documented on the API page.
__all__ = ["rescale_threshold", "random_undersample", "smote", "EasyEnsembleClassifier",
           "undersampling_correction", "best_f1_threshold", "REMEDIES", "remedy_study"]
