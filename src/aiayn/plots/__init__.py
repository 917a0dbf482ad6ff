"""Pictures (matplotlib): attention heat maps, piano rolls, digit grids. Nothing below imports them."""
