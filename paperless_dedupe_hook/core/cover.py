"""A pair less the values of a head one side has and the other lacks (a cover sheet), pure.

:mod:`.placement` says where values stand and where a text's own head ends; this module makes
the pair :mod:`.scoring` compares from it.  Without the texts (the hook, before it fetches a
candidate's text; the rebuild, before it aligns two texts) the widest cut is offered: each
side's values as far as its bound.  The texts only narrow it (:func:`shown`), and a narrower
head leaves fewer of one side's own values out, which only conflict: what the widest cut cannot
lift over the threshold, the texts' cut cannot either.
"""

from __future__ import annotations

from dataclasses import replace

from . import placement
from .features import Features

__all__ = ["shown", "widest"]

# (tokens, bound, own share) of one side: its tokens as far as its bound, the bound, the share.
_Side = tuple[frozenset[str], float, float]


def _cut(x: Features, y: Features, jaccard: float) -> _Side:
    share = placement.own_share(jaccard, x.shingle_count, y.shingle_count)
    bound = placement.head_bound(x.tokens, x.places, y.tokens) if share >= placement.MIN_OWN_SHARE else 0.0
    return placement.trimmed(x.tokens, x.places, bound, y.tokens), bound, share


def widest(a: Features, b: Features, jaccard: float) -> tuple[Features, Features] | None:
    """The pair less each side's values that stand before its bound and the other lacks
    (:func:`.placement.head_bound`); None where there are none (or no places are known)."""
    if not a.places or not b.places:
        return None
    (ta, _, _), (tb, _, _) = _cut(a, b, jaccard), _cut(b, a, jaccard)
    if ta is a.tokens and tb is b.tokens:
        return None
    return _less(a, ta), _less(b, tb)


def shown(a: Features, b: Features, jaccard: float) -> tuple[Features, Features] | None:
    """The pair less the values of the heads of their own that the texts show
    (:func:`.placement.without_head`, at most as far as :func:`widest`); None where there are
    none.  Both need their samples."""
    if not a.places or not b.places or a.sample is None or b.sample is None:
        return None
    (ta, bound_a, share_a), (tb, bound_b, share_b) = _cut(a, b, jaccard), _cut(b, a, jaccard)
    if ta is a.tokens and tb is b.tokens:
        return None
    words_a, words_b = a.head.split(), b.head.split()
    if ta is not a.tokens:
        ta = placement.without_head(a.tokens, a.places, b.tokens, words_a, words_b, bound_a, share_a, a.word_count)
    if tb is not b.tokens:
        tb = placement.without_head(b.tokens, b.places, a.tokens, words_b, words_a, bound_b, share_b, b.word_count)
    if ta is a.tokens and tb is b.tokens:
        return None
    return _less(a, ta), _less(b, tb)


def _less(feats: Features, tokens: frozenset[str]) -> Features:
    """``feats`` with these of its tokens (no places: they belong to all of them)."""
    return feats if tokens is feats.tokens else replace(feats, tokens=tokens, places=b"")
