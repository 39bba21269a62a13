"""A pair less the values of a head one side has and the other lacks (a cover sheet), pure.

:mod:`.placement` says where values stand and where a text's own head ends; this module makes
the pair :mod:`.scoring` compares from it.  Without the texts (the hook, before it fetches a
candidate's text) every way of leaving heads out is offered, each side's as far as its bound,
so that the score's choice, which the texts narrow, lies within what was offered (a narrower
head leaves fewer of one side's own values out, and those only conflict).
"""

from __future__ import annotations

from dataclasses import replace

from . import placement
from .features import Features

__all__ = ["variants"]


def variants(a: Features, b: Features, jaccard: float, *, texts: bool = False) -> list[tuple[Features, Features]]:
    """The pair less the values of a head one side has and the other lacks (core.placement):
    with ``texts``, the one variant the samples allow (a head on each side the texts show one
    on); without, every variant (either side's, both), for a bound.  Empty: none to leave out."""
    if not a.places or not b.places:
        return []
    share_a = placement.own_share(jaccard, a.shingle_count, b.shingle_count)
    share_b = placement.own_share(jaccard, b.shingle_count, a.shingle_count)
    bound_a = placement.head_bound(a.tokens, a.places, b.tokens) if share_a >= placement.MIN_OWN_SHARE else 0.0
    bound_b = placement.head_bound(b.tokens, b.places, a.tokens) if share_b >= placement.MIN_OWN_SHARE else 0.0
    ta = placement.trimmed(a.tokens, a.places, bound_a, b.tokens)
    tb = placement.trimmed(b.tokens, b.places, bound_b, a.tokens)
    cut_a, cut_b = ta is not a.tokens, tb is not b.tokens
    if not (cut_a or cut_b):
        return []
    if texts:
        if a.sample is None or b.sample is None:
            return []
        # the head the texts show, at most the bound (so that the bound without texts holds)
        words_a, words_b = a.head.split(), b.head.split()
        if cut_a:
            ta = placement.without_head(a.tokens, a.places, b.tokens, words_a, words_b, bound_a, share_a, a.word_count)
        if cut_b:
            tb = placement.without_head(b.tokens, b.places, a.tokens, words_b, words_a, bound_b, share_b, b.word_count)
        if ta is a.tokens and tb is b.tokens:
            return []
        return [(_less(a, ta), _less(b, tb))]
    variants = [(_less(a, ta), b)] if cut_a else []
    if cut_b:
        variants.append((a, _less(b, tb)))
    if cut_a and cut_b:
        variants.append((_less(a, ta), _less(b, tb)))
    return variants


def _less(feats: Features, tokens: frozenset[str]) -> Features:
    """``feats`` with these of its tokens (no places: they belong to all of them)."""
    return feats if tokens is feats.tokens else replace(feats, tokens=tokens, places=b"")
