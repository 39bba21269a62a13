"""The pure core: text normalization, MinHash signatures, LSH banding, feature extraction,
the discriminative comparison, pair scoring and clustering.

Values in, values out: no I/O, no configuration lookups, and no imports from outside
``core/`` but the standard library, numpy, rapidfuzz and the C signature kernel
(``tests/test_layout.py`` checks this).
"""
