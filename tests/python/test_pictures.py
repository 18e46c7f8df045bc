# SPDX-License-Identifier: GPL-3.0-or-later
"""Simulation.render(), record() and snapshot(): pictures through the renderer of
`cellforge --headless` (EGL; Mesa's llvmpipe where no GPU is), movies read back from the
file, HDF5 snapshots with the XDMF file ParaView opens."""
import os

import numpy as np
import pytest

import cellforge
from conftest import MODEL_CASES, small

# The renderer's clear colour, (0.12, 0.12, 0.14) in 8 bits.
BACKGROUND = np.array([31, 31, 36])

images, movies = cellforge.rendering_available()
needs_renderer = pytest.mark.skipif(not images, reason="this build has no renderer")


def drawn_pixels(rgb):
    """Pixels that differ from the background by more than rounding."""
    return int((np.abs(rgb[:, :, :3].astype(int) - BACKGROUND).max(axis=-1) > 3).sum())


@needs_renderer
@pytest.mark.parametrize("model", sorted(MODEL_CASES))
def test_every_model_renders(model):
    sim = small(model)
    sim.step(2)
    image = sim.render(size=(320, 180))
    assert image.shape == (180, 320, 3) and image.dtype == np.uint8
    # The model covers a good part of the frame: more than the overlays' text alone.
    assert drawn_pixels(image) > 0.05 * 320 * 180, model


@needs_renderer
def test_render_options():
    sim = small("brownian")
    plain = sim.render(size=(320, 180), legend=False, timestamp=False)
    annotated = sim.render(size=(320, 180), title="Spheroid")
    assert drawn_pixels(annotated) > drawn_pixels(plain)  # legend, title and time stamp
    clear = sim.render(size=(320, 180), transparent=True)
    assert clear.shape == (180, 320, 4) and (clear[:, :, 3] == 0).any()
    with pytest.raises(cellforge.ParameterError, match="color"):
        sim.render(size=(320, 180), color="no-such-channel")
    with pytest.raises(cellforge.ParameterError, match="width"):
        sim.render(size=(0, 180))


@pytest.mark.skipif(not movies, reason="this build has no movie support")
def test_record_writes_a_playable_movie(tmp_path):
    sim = small("brownian")
    path = tmp_path / "brownian.mp4"
    info = sim.record(path, steps=6, every=2, size=(320, 180), fps=10)
    assert sim.step_count == 6
    # A frame at the start and one every 2 steps, as read back from the file.
    assert info["frames"] == 4 and info["codec"] == "h264"
    assert (info["width"], info["height"]) == (320, 180)
    assert info["seconds"] == pytest.approx(0.4, abs=0.11)
    assert os.path.getsize(path) > 1000


def test_snapshots_form_a_series(tmp_path):
    sim = small("spheres")
    first = sim.snapshot(tmp_path)
    sim.step(2)
    second = sim.snapshot(tmp_path)
    assert os.path.exists(first) and os.path.exists(second) and first != second
    xmf = (tmp_path / "spheres.xmf").read_text()
    assert os.path.basename(first) in xmf and os.path.basename(second) in xmf
