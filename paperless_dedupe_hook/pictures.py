"""Decoding a page's thumbnail to the gray array :mod:`core.picture` hashes.

The only module that imports Pillow, and only inside :func:`gray_from_image_bytes`: a document
that takes the text path never pays for it (``python -X importtime`` shows no PIL).
"""

from __future__ import annotations

import io

import numpy as np
import numpy.typing as npt

from ._errors import PictureError

__all__ = ["MAX_PICTURE_PIXELS", "gray_from_image_bytes"]

#: A thumbnail is about 400 x 570; anything far larger is not one (and would cost memory).
MAX_PICTURE_PIXELS = 40_000_000


def gray_from_image_bytes(data: bytes) -> npt.NDArray[np.uint8]:
    """Decode WebP, PNG or JPEG bytes to a 2-D uint8 gray array (transparency over white)."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError as exc:  # pragma: no cover - Pillow is in every Paperless image
        raise PictureError("Pillow is not installed: pip install pillow (needed for pages without text)") from exc
    if not data:
        raise PictureError("the thumbnail is empty (0 bytes): not an image")
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_PICTURE_PIXELS:
                raise PictureError(f"the thumbnail is {width} x {height} pixels: too large for a thumbnail")
            image.load()
            if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
                rgba = image.convert("RGBA")
                white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                gray = Image.alpha_composite(white, rgba).convert("L")
            else:
                gray = image.convert("L")
            return np.asarray(gray, dtype=np.uint8).copy()
    except PictureError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        raise PictureError(f"the thumbnail is not a readable image ({type(exc).__name__}): "
                           "check the document's thumbnail in Paperless") from exc
