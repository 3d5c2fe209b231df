import numpy as np
import pandas as pd

from seaborn._core.rules import categorical_order
from seaborn.palettes import color_palette
from seaborn.utils import relative_luminance


def ordered_levels(values, order=None):
    """Distinct non-null levels of ``values`` in seaborn's categorical order."""
    if isinstance(values, pd.Series):
        series = values
    else:
        series = pd.Series(list(values))
    levels = categorical_order(series, order)
    result = []
    for level in levels:
        if isinstance(level, np.generic):
            level = level.item()
        result.append(level)
    return result


def level_colors(values, palette=None, order=None):
    """One (level, rgb) pair per level, colors drawn from the palette in level order."""
    levels = ordered_levels(values, order)
    colors = color_palette(palette, len(levels))
    result = []
    for level, color in zip(levels, colors):
        rgb = tuple(round(float(c), 4) for c in color[:3])
        result.append((level, rgb))
    return result


def label_colors(values, palette=None, order=None):
    """One (level, "black" | "white") pair per level: the text color readable on its swatch."""
    result = []
    for level, rgb in level_colors(values, palette, order):
        luminance = relative_luminance(rgb)
        if luminance > .408:
            result.append((level, "black"))
        else:
            result.append((level, "white"))
    return result
