"""torch.utils.tensorboard.SummaryWriter: the event files mindtorch writes hold the same events (tags, steps, values,
histograms, PNG images, text, hparams, PR curves) as real torch's writer writes for the same calls, read back with
tensorboard's own event-file loader. Skipped without the optional `tensorboard` package (as torch needs it too)."""
import glob
import os

import numpy as np
import pytest

pytest.importorskip("tensorboard")

from tensorboard.backend.event_processing.event_file_loader import EventFileLoader  # noqa: E402

import mindtorch.torch as torch  # noqa: E402
from mindtorch.torch.utils.tensorboard import SummaryWriter  # noqa: E402


def _events(log_dir):
    """{relative dir: [events without wall_time and without the file-version header]} for every event file."""
    out = {}
    for path in sorted(glob.glob(os.path.join(log_dir, "**", "events.out.tfevents.*"), recursive=True)):
        evs = []
        for ev in EventFileLoader(path).Load():
            if ev.HasField("file_version"):
                continue
            ev.wall_time = 0
            evs.append(ev)
        out.setdefault(os.path.relpath(os.path.dirname(path), log_dir), []).extend(evs)
    return out


def _log(t, writer_cls, log_dir, image_data, hist_data):
    w = writer_cls(log_dir=log_dir)
    for step in range(3):
        w.add_scalar("loss/train", t.tensor(1.0 / (step + 1)), step)
        w.add_scalar("lr", 0.1 * step, global_step=step, new_style=True)
    w.add_scalar("acc", np.float32(0.75), 7, double_precision=True, new_style=True)
    w.add_scalars("run", {"a": 1.5, "b": t.tensor(2.5)}, 4)
    w.add_histogram("weights", t.tensor(hist_data), 1)
    w.add_histogram("weights_np_bins", hist_data, 2, bins=10)
    w.add_histogram("w_max_bins", t.tensor(hist_data), 3, max_bins=7)
    w.add_histogram_raw("raw", min=0.0, max=3.0, num=6, sum=9.0, sum_squares=19.0, bucket_limits=[1.0, 2.0, 3.0],
                        bucket_counts=[1, 2, 3], global_step=1)
    w.add_image("img_chw", t.tensor(image_data[0]), 1)
    w.add_image("img_hwc_uint8", (image_data[0].transpose(1, 2, 0) * 255).astype(np.uint8), 1, dataformats="HWC")
    w.add_image("img_hw", t.tensor(image_data[0, 0]), 1, dataformats="HW")
    w.add_images("batch", t.tensor(image_data), 2)
    w.add_text("notes", "epoch **1** done", 1)
    labels = np.array([0, 1, 1, 0, 1, 1, 0, 1])
    preds = np.array([0.1, 0.9, 0.8, 0.4, 0.35, 0.7, 0.2, 0.6], np.float32)
    w.add_pr_curve("pr", t.tensor(labels), t.tensor(preds), 5, num_thresholds=11)
    w.add_hparams({"lr": 0.01, "bsize": 32, "opt": "sgd", "nesterov": True}, {"hparam/acc": 0.9}, run_name="hp")
    w.close()


def test_event_files_match_torch(reftorch, tmp_path):
    ref_writer = pytest.importorskip("torch.utils.tensorboard").SummaryWriter
    rng = np.random.default_rng(0)
    image = rng.random((3, 3, 8, 10)).astype(np.float32)
    hist = rng.standard_normal(500).astype(np.float32)
    _log(torch, SummaryWriter, str(tmp_path / "ours"), image, hist)
    _log(reftorch, ref_writer, str(tmp_path / "ref"), image, hist)
    ours, ref = _events(str(tmp_path / "ours")), _events(str(tmp_path / "ref"))
    assert sorted(ours) == sorted(ref) == [".", "hp", "run_a", "run_b"]
    for d in ref:
        assert len(ours[d]) == len(ref[d]), d
        for a, b in zip(ours[d], ref[d]):
            assert a == b, f"{d}:\n{a}\n!=\n{b}"


def test_default_log_dir_context_manager_and_purge(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with SummaryWriter(comment="_exp") as w:
        assert w.get_logdir().startswith("runs" + os.sep) and w.get_logdir().endswith("_exp")
        w.add_scalar("x", 1.0, 0)
    assert len(glob.glob(os.path.join(w.get_logdir(), "events.out.tfevents.*"))) == 1
    w2 = SummaryWriter(str(tmp_path / "resumed"), purge_step=5, filename_suffix=".sfx")
    w2.add_scalar("x", 2.0, 5)
    w2.flush()
    (path,) = glob.glob(str(tmp_path / "resumed" / "events.out.tfevents.*.sfx"))
    evs = list(EventFileLoader(path).Load())
    assert [e.step for e in evs[1:]] == [5, 5, 5]  # file version, purge marker, session start, the scalar
    assert evs[2].session_log.status == evs[2].session_log.START
    w2.close()


def test_errors_name_the_api(tmp_path):
    w = SummaryWriter(str(tmp_path))
    with pytest.raises(NotImplementedError, match="SummaryWriter.add_graph"):
        w.add_graph(torch.nn.Linear(2, 2), torch.ones(1, 2))
    with pytest.raises(AssertionError, match="one element"):
        w.add_scalar("bad", torch.ones(3))
    with pytest.raises(TypeError, match="dictionary"):
        w.add_hparams([("lr", 1)], {})
    with pytest.raises(ValueError, match="no element"):
        w.add_histogram("empty", np.array([]))
    w.close()
