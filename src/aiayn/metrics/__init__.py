"""Scores: BLEU and chrF through sacreBLEU, and EVALB's labelled brackets."""
