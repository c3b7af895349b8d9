"""Pieces of the error messages every check writes (part of :mod:`mlcore._validation`)."""

from __future__ import annotations


def _suffix(why: str | None) -> str:
    return f"; {why}" if why else ""


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
