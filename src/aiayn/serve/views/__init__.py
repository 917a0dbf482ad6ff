"""The studio's views (issue 44), one module per view: each parses its request, says which models it
takes (``offered``, asked of the model's capabilities, never of a task's name) and computes its JSON
payload on the model's thread from the real computation (``inference.inspect``, the search's trace).

A view module defines ``NAME`` (its route: ``POST /api/NAME``), ``FIELDS`` (the request's keys),
``offered(translator) -> bool``, ``parse(data, defaults, limits) -> (text, {keyword: value})`` and
``compute(translator, text, **keywords) -> dict``; ``TAKES_RUN = True``: ``compute`` also gets ``run``, the
served model's run folder (``io.rundir.RunDir``; a model served without one is refused with a 404).
The attention family's views (issue 45) are records (``fields.View``), several to a module: ``music`` (the
Music Transformer), ``images`` (the Image Transformer), ``family`` (Bahdanau's alignment, the parse tree);
a view with a ``MEDIA_TYPE`` answers a file (``/api/midi``) instead of JSON.
"""

from __future__ import annotations

from . import beam, checkpoints, family, images, music, walkthrough

VIEWS = {view.NAME: view for view in (walkthrough, beam, checkpoints, *music.VIEWS, *images.VIEWS, *family.VIEWS)}


def offered(subject) -> list[str]:
    """The views a served model (``serve.subjects``) offers; none for an engine without a PyTorch model."""
    if getattr(subject, "model", None) is None:
        return []
    return [name for name, view in VIEWS.items() if view.offered(subject)]
