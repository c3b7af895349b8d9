"""A refused argument raises from the public function the user called (FUZZ-3 item 4).

The last frame of the traceback is the public function or method, not
``mlcore._validation`` or a private helper (``mlcore/_validation/_public.py``);
an error raised in the user's own code keeps its frames; every message names
the parameter.
"""

import traceback

import numpy as np
import pytest

from mlcore.bootstrap import bootstrap_se, draw_counts
from mlcore.bounds import hoeffding_tail
from mlcore.compare import friedman_test
from mlcore.evaluation import auc_rank
from mlcore.feature_selection import MIFilter, mutual_information
from mlcore.lda import ShrinkageLDA
from mlcore.linear import LogisticRegressionGD, cross_entropy, logistic_loss
from mlcore.model_selection import make_splitter
from mlcore.vc import sauer_bound

CALLS = [
    (lambda: mutual_information(5, [1, 2]), "mutual_information", "x"),
    (lambda: mutual_information([1, 2], np.int64(3)), "mutual_information", "y"),
    (lambda: cross_entropy(1, [0.5]), "cross_entropy", "y_true"),
    (lambda: logistic_loss(np.zeros(2), [[1.0]], np.array(1)), "logistic_loss", "y"),
    (lambda: hoeffding_tail(-1, gamma=0.1), "hoeffding_tail", "m"),
    (lambda: sauer_bound(-1, 2), "sauer_bound", "m"),
    (lambda: draw_counts(0, 3), "draw_counts", "n_samples"),
    (lambda: auc_rank([0, 1], [0.5]), "auc_rank", "y_score"),
    (lambda: friedman_test([[1.0]]), "friedman_test", "scores"),
    (lambda: make_splitter("no such scheme"), "make_splitter", "scheme"),
    (lambda: LogisticRegressionGD(max_iter=-1).fit([[0.0], [1.0]], [0, 1]), "fit", "max_iter"),
    (lambda: ShrinkageLDA("x").fit([[0.0], [1.0]], [0, 1]), "fit", "shrinkage"),
    (lambda: MIFilter(k=0).fit(np.eye(3), [0, 1, 0]), "fit", "k"),
]


@pytest.mark.parametrize("call, function, parameter", CALLS,
                         ids=[f"{c[1]}-{c[2]}" for c in CALLS])
def test_the_last_frame_is_the_public_function(call, function, parameter):
    with pytest.raises((ValueError, TypeError)) as excinfo:
        call()
    last = traceback.extract_tb(excinfo.tb)[-1]
    assert last.name == function, f"traceback ends in {last.name} ({last.filename})"
    assert "_validation" not in last.filename
    assert parameter in str(excinfo.value)


def test_an_error_in_the_users_code_keeps_its_frames():
    def statistic(x):
        raise ValueError("the user's own error")

    with pytest.raises(ValueError) as excinfo:
        bootstrap_se(statistic, [1.0, 2.0], 10)
    assert traceback.extract_tb(excinfo.tb)[-1].name == "statistic"


def test_0d_labels_are_refused_by_name():
    """The two messages said to print "got shape ()" without the parameter's name."""
    with pytest.raises(ValueError, match=r"^x must be a non-empty 1-D array, got shape \(\)"):
        mutual_information(np.float64(1.0), [1])
    with pytest.raises(ValueError, match=r"^y_true must be one-dimensional, .* shape \(\)"):
        cross_entropy(np.int64(1), 0.5)
