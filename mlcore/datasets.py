"""Data sets shipped inside ``mlcore``, loaded like scikit-learn's.

Every loader returns a :class:`sklearn.utils.Bunch` with ``data``, ``target``,
``feature_names``, ``target_names``, ``frame`` (the whole file as a pandas
``DataFrame``) and ``DESCR``, or ``(X, y)`` with ``return_X_y=True``, exactly
as :func:`sklearn.datasets.load_wine` does. The files live in
``mlcore/data/`` and are read with :mod:`importlib.resources`, so the loaders
work from an installed wheel with no download. Sources and licences are in
``mlcore/data/SOURCES.md`` and on the book's "Data credits" page.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from ._validation import check_bool, check_option

__all__ = ["load_wholesale", "load_wine_quality", "load_sms_spam", "read_data_file"]

_WHOLESALE_SPENDING = ["Fresh", "Milk", "Grocery", "Frozen", "Detergents_Paper", "Delicassen"]
_WHOLESALE_TARGETS = {
    "channel": ("Channel", {1: "Horeca", 2: "Retail"}),
    "region": ("Region", {1: "Lisbon", 2: "Oporto", 3: "Other"}),
}

_WHOLESALE_DESCR = """\
Wholesale customers (UCI, Cardoso 2014; CC BY 4.0)
--------------------------------------------------
440 clients of a Portuguese wholesale distributor. Features: the annual
spending, in monetary units, on six product groups ({features}).
Target ({target}): {classes}.
The file also holds the other label column ({other}); it is a category code,
not a measurement, so it is left out of ``data`` (it is in ``frame``).
"""

_WINE_QUALITY_DESCR = """\
Wine Quality, {color} (UCI, Cortez et al. 2009; CC BY 4.0)
-----------------------------------------------------------
{n} Portuguese "Vinho Verde" {color} wines, 11 physicochemical measurements
each. Target: {target_text}. {duplicates} rows are exact duplicates of an
earlier row (the original file has them too).
"""


def read_data_file(name: str, **read_csv_kwargs) -> pd.DataFrame:
    """Read one file of ``mlcore/data/`` into a ``DataFrame``.

    Parameters
    ----------
    name : str
        File name inside ``mlcore/data``, e.g. ``"winequality-red.csv"``.
    **read_csv_kwargs
        Passed to :func:`pandas.read_csv` (e.g. ``sep="\\t"``).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> read_data_file("wholesale_customers.csv").shape
    (440, 8)
    """
    folder = resources.files("mlcore") / "data"
    available = sorted(p.name for p in folder.iterdir()
                       if not p.name.startswith(".") and p.suffix in (".csv", ".tsv"))
    if not isinstance(name, str) or name not in available:
        raise ValueError(f"name must be a file of mlcore/data, one of {available}, "
                         f"got name={name!r}.")
    with resources.as_file(folder / name) as path:
        try:
            return pd.read_csv(path, **read_csv_kwargs)
        except (pd.errors.ParserError, UnicodeDecodeError) as error:
            raise ValueError(f"read_csv_kwargs do not fit {name}: {error}") from None


def _finish(frame, features, target, target_names, descr, return_X_y):
    X = frame[features].to_numpy(dtype=float)
    y = np.asarray(target)
    if check_bool(return_X_y, "return_X_y"):
        return X, y
    return Bunch(data=X, target=y, feature_names=list(features),
                 target_names=np.asarray(target_names), frame=frame, DESCR=descr)


def load_wholesale(target: str = "channel", *, return_X_y: bool = False):
    """Load the Wholesale customers data: 440 clients, six spending columns.

    Parameters
    ----------
    target : {"channel", "region"}
        The label: ``"channel"`` gives 2 classes (0 Horeca, 1 Retail),
        ``"region"`` gives 3 classes (0 Lisbon, 1 Oporto, 2 Other).
    return_X_y : bool
        Return ``(X, y)`` instead of a ``Bunch``.

    Returns
    -------
    Bunch or tuple
        ``data`` (440, 6) float spending, ``target`` int codes from 0,
        ``feature_names``, ``target_names``, ``frame`` (the whole file,
        both label columns included) and ``DESCR``.

    Notes
    -----
    The source paper of chapter 5 counts seven features, that is, the six
    spending columns plus the label it did not classify by. Only the six
    measurements go into ``data``; the other label is a category code.

    Examples
    --------
    >>> X, y = load_wholesale("region", return_X_y=True)
    >>> X.shape, sorted(set(y.tolist()))
    ((440, 6), [0, 1, 2])
    >>> load_wholesale().target_names.tolist()
    ['Horeca', 'Retail']
    """
    check_option(target, "target", list(_WHOLESALE_TARGETS))
    column, names = _WHOLESALE_TARGETS[target]
    frame = read_data_file("wholesale_customers.csv")
    codes = sorted(names)
    y = np.searchsorted(codes, frame[column].to_numpy())
    other = "Region" if column == "Channel" else "Channel"
    descr = _WHOLESALE_DESCR.format(
        features=", ".join(_WHOLESALE_SPENDING), target=column, other=other,
        classes=", ".join(f"{i} = {names[c]} ({int(np.sum(y == i))})" for i, c in enumerate(codes)))
    return _finish(frame, _WHOLESALE_SPENDING, y, [names[c] for c in codes], descr, return_X_y)


def load_wine_quality(color: str = "red", *, binary: bool = False, return_X_y: bool = False):
    """Load the Wine Quality data (red: 1,599 wines; white: 4,898), 11 features.

    Parameters
    ----------
    color : {"red", "white"}
        Which file.
    binary : bool
        False: the target is the quality score itself (red 3–8, six classes;
        white 3–9, seven classes). True: the target is ``quality > 5``
        (1 "good") against ``quality <= 5`` (0 "not good"), the two-class
        version of chapter 5's source paper.
    return_X_y : bool
        Return ``(X, y)`` instead of a ``Bunch``.

    Returns
    -------
    Bunch or tuple
        ``data`` (m, 11) float, ``target`` int, ``feature_names``,
        ``target_names``, ``frame`` and ``DESCR``.

    Examples
    --------
    >>> X, y = load_wine_quality("white", return_X_y=True)
    >>> X.shape, int(y.min()), int(y.max())
    ((4898, 11), 3, 9)
    >>> load_wine_quality("red", binary=True).target_names.tolist()
    ['quality <= 5', 'quality > 5']
    """
    check_option(color, "color", ["red", "white"])
    binary = check_bool(binary, "binary")
    frame = read_data_file(f"winequality-{color}.csv")
    features = [c for c in frame.columns if c != "quality"]
    quality = frame["quality"].to_numpy()
    if binary:
        y = (quality > 5).astype(int)
        names = ["quality <= 5", "quality > 5"]
        target_text = "1 if quality > 5 else 0"
    else:
        y = quality.astype(int)
        names = [str(q) for q in np.unique(quality)]
        target_text = f"the quality score, {len(names)} classes {', '.join(names)}"
    descr = _WINE_QUALITY_DESCR.format(color=color, n=len(frame), target_text=target_text,
                                       duplicates=int(frame.duplicated().sum()))
    return _finish(frame, features, y, names, descr, return_X_y)


_SMS_DESCR = """\
SMS Spam Collection v.1 (UCI, Almeida, Gomez Hidalgo and Yamakami 2011; CC BY 4.0)
-------------------------------------------------------------------------------
{n} English SMS messages, {spam} labelled spam and {ham} ham (legitimate).
``data`` holds the raw texts (turn them into word counts with, e.g.,
``sklearn.feature_extraction.text.CountVectorizer``); target 1 = spam.
Some messages are crude (real spam).
"""


def load_sms_spam(*, return_X_y: bool = False):
    """Load the SMS Spam Collection: 5,574 text messages, 747 of them spam.

    Parameters
    ----------
    return_X_y : bool
        Return ``(texts, y)`` instead of a ``Bunch``.

    Returns
    -------
    Bunch or tuple
        ``data``: array of the message texts (str); ``target``: 1 for spam,
        0 for ham; ``target_names`` ``["ham", "spam"]``; ``frame`` with the
        columns ``label`` and ``text``; ``DESCR``.

    Examples
    --------
    >>> texts, y = load_sms_spam(return_X_y=True)
    >>> len(texts), int(y.sum())
    (5574, 747)
    """
    if not isinstance(return_X_y, (bool, np.bool_)):
        raise TypeError(f"return_X_y must be True or False, got return_X_y={return_X_y!r}.")
    frame = read_data_file("sms_spam_collection.tsv", sep="\t", header=None, names=["label", "text"],
                           quoting=3, keep_default_na=False)
    texts = frame["text"].to_numpy(dtype=object)
    y = (frame["label"] == "spam").to_numpy(dtype=int)
    if return_X_y:
        return texts, y
    descr = _SMS_DESCR.format(n=len(frame), spam=int(y.sum()), ham=int(len(y) - y.sum()))
    return Bunch(data=texts, target=y, feature_names=["text"], target_names=np.array(["ham", "spam"]),
                 frame=frame, DESCR=descr)
