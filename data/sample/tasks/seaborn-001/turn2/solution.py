from seaborn._core.rules import variable_type
from seaborn.utils import desaturate
from seaborn._core.level_colors import ordered_levels, level_colors


def column_kinds(frame):
    """Map each column name (in frame order) to "numeric", "categorical" or "datetime"."""
    kinds = {}
    for name in frame.columns:
        kind = variable_type(frame[name], boolean_type="categorical")
        if kind == "boolean":
            kind = "categorical"
        kinds[name] = str(kind)
    return kinds


def categorical_levels(frame, order=None):
    """Map each categorical column (in frame order) to its ordered levels."""
    overrides = order if order is not None else {}
    result = {}
    for name, kind in column_kinds(frame).items():
        if kind != "categorical":
            continue
        result[name] = ordered_levels(frame[name], overrides.get(name))
    return result


def muted_level_colors(values, prop, palette=None, order=None):
    """One (level, rgb) pair per level with the color's saturation scaled by ``prop``."""
    if not 0 <= prop <= 1:
        raise ValueError("prop must be between 0 and 1")
    result = []
    for level, rgb in level_colors(values, palette, order):
        muted = desaturate(rgb, prop)
        result.append((level, tuple(round(float(c), 4) for c in muted)))
    return result
