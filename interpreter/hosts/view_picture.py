"""A seat's view as a picture: the text of ``terminal_view.render_text`` drawn with
matplotlib (the ``plot`` extra, imported when a picture is first drawn) on a canvas of a
fixed size, for the environments' ``render_mode="rgb_array"``.

The picture is always ``PICTURE_SHAPE`` (height, width, 3) of uint8, whatever the game and
the length of its view: the font shrinks so that the whole view fits. matplotlib's global
state (pyplot, the backend) is left alone: the figure is drawn on an Agg canvas of its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..sim.extras import MissingExtraError
from .terminal_view import render_text

if TYPE_CHECKING:
    from ..game import Game
    from ..state.state import State

PICTURE_SHAPE = (800, 800, 3)
"""Height, width and colours of every picture of a view."""
_DPI = 100
_COLUMNS = 100          # characters in a line of the view
_MARGIN = 8             # pixels around the text
_CHARACTER_WIDTH = 0.6  # of a monospaced character, in font sizes
_LINE_HEIGHT = 1.2      # of a line, in font sizes
_LARGEST_FONT = 12.0    # points
PLOT_HINT = "pip install 'rulelang[plot]'"


def require_agg() -> tuple[Any, Any]:
    """matplotlib's ``Figure`` and Agg ``FigureCanvasAgg``; MissingExtraError saying how to
    install matplotlib when it is not."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError(f"render_mode='rgb_array' needs matplotlib: {PLOT_HINT}") from None
    return Figure, FigureCanvasAgg


def font_size(lines: list[str]) -> float:
    """The largest font size (points, at most ``_LARGEST_FONT``) at which ``lines`` fit the
    picture, in width and in height."""
    height, width, _ = PICTURE_SHAPE
    columns = max([_COLUMNS, *map(len, lines)])
    by_width = (width - 2 * _MARGIN) / (columns * _CHARACTER_WIDTH)
    by_height = (height - 2 * _MARGIN) / (max(1, len(lines)) * _LINE_HEIGHT)
    return min(_LARGEST_FONT, min(by_width, by_height) * 72 / _DPI)


def text_picture(text: str) -> npt.NDArray[np.uint8]:
    """``text`` in a monospaced font, black on white, as an RGB array of ``PICTURE_SHAPE``."""
    figure_class, canvas_class = require_agg()
    height, width, _ = PICTURE_SHAPE
    figure = figure_class(figsize=(width / _DPI, height / _DPI), dpi=_DPI, facecolor="white")
    canvas = canvas_class(figure)
    lines = text.rstrip("\n").splitlines()
    figure.text(_MARGIN / width, 1 - _MARGIN / height, "\n".join(lines), family="monospace",
                fontsize=font_size(lines), va="top", ha="left", linespacing=_LINE_HEIGHT)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba(), dtype=np.uint8)[:, :, :3]
    return np.ascontiguousarray(pixels)


def view_picture(game: Game, state: State, seat: int) -> npt.NDArray[np.uint8]:
    """The view of ``seat`` (CHANCE: the public view) as a picture of ``PICTURE_SHAPE``."""
    return text_picture(render_text(game, state, seat, width=_COLUMNS, ascii_only=True))
