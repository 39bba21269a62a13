"""A template family for tests: documents that share a long boilerplate and differ in a short body."""

from __future__ import annotations

import random

TEMPLATE_WORDS = ("the customer shall pay all charges within fourteen days of the invoice date and the supplier "
                  "may suspend the service after a written reminder where payment is late while either party may "
                  "end the agreement with one month notice to the end of a calendar month").split()
BODY_WORDS = ("apple basket candle dolphin engine falcon garden harbour island jungle kettle lantern meadow needle "
              "orchard pepper quarry ribbon saddle timber umbrella velvet walnut yonder zephyr").split()


def member(i: int) -> str:
    """Family member ``i``: the same 400-word boilerplate, its own 80-word body."""
    rng = random.Random(1000 + i)
    template = " ".join(TEMPLATE_WORDS[k % len(TEMPLATE_WORDS)] + ("" if k % 9 else ".") for k in range(400))
    body = " ".join(rng.choice(BODY_WORDS) + str(rng.randint(0, 99)) for _ in range(80))
    return f"Statement {i}\n{body}\n{template}"
