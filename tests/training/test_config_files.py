"""Numbers in YAML settings read as the numbers they mean: YAML 1.1 reads 1e-4 (no dot) as a string."""

import pytest

from aiayn.app.argtypes import setting as _setting
from aiayn.training.config import read_config_file


@pytest.mark.parametrize("text, value", [("1e-4", 1e-4), ("2.5E3", 2500.0), ("-3e-2", -0.03), (".5e1", 5.0),
                                         ("0.3", 0.3), ("12", 12), ("1e", "1e"), ("e5", "e5"), ("abc", "abc")])
def test_scientific_notation_is_a_number(tmp_path, text, value):
    assert _setting(f"train.lr_scale={text}") == ("train.lr_scale", value)
    path = tmp_path / "c.yaml"
    path.write_text(f"train: {{lr_scale: {text}}}\n")
    assert read_config_file(path)["train"]["lr_scale"] == value
