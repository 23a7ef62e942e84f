"""SummaryWriter: torch's TensorBoard logger, writing event files with tensorboard's EventFileWriter.

Supported: scalars (add_scalar/add_scalars), histograms, images (add_image/add_images/add_figure), text,
hyper-parameters, PR curves, and the raw protobuf level (FileWriter.add_event/add_summary). Logging a model graph
(add_graph), embeddings, video, audio and meshes needs torch's JIT tracer or extra encoders mindtorch does not have:
those methods raise UnsupportedAPIError naming themselves.
"""
from __future__ import annotations

import os
import socket
import time
from datetime import datetime
from typing import Any, Dict, Optional

from tensorboard.compat.proto.event_pb2 import Event, SessionLog
from tensorboard.summary.writer.event_file_writer import EventFileWriter

from ..._unsupported import UnsupportedAPIError
from . import summary as S

__all__ = ["FileWriter", "SummaryWriter"]


class FileWriter:
    """One event file in `log_dir`, written asynchronously (flushed every `flush_secs` or `max_queue` events)."""

    def __init__(self, log_dir: Any, max_queue: int = 10, flush_secs: int = 120, filename_suffix: str = "") -> None:
        self.event_writer = EventFileWriter(str(log_dir), max_queue, flush_secs, filename_suffix)

    def get_logdir(self) -> str:
        return self.event_writer.get_logdir()

    def add_event(self, event: Event, step: Optional[int] = None, walltime: Optional[float] = None) -> None:
        event.wall_time = time.time() if walltime is None else walltime
        if step is not None:
            event.step = int(step)  # numpy/tensor steps: protobuf wants a Python int
        self.event_writer.add_event(event)

    def add_summary(self, summary: Any, global_step: Optional[int] = None, walltime: Optional[float] = None) -> None:
        self.add_event(Event(summary=summary), global_step, walltime)

    def flush(self) -> None:
        self.event_writer.flush()

    def close(self) -> None:
        self.event_writer.close()

    def reopen(self) -> None:
        self.event_writer.reopen()


class SummaryWriter:
    """Writes entries to event files in `log_dir` for TensorBoard to read.

    Args:
        log_dir: directory of the event files; default `runs/<Mon DD_HH-MM-SS>_<hostname><comment>`.
        comment: suffix of the default log_dir (ignored when log_dir is given).
        purge_step: on resuming a crashed run, events with a step >= purge_step are hidden by TensorBoard.
        max_queue, flush_secs: pending events before a forced flush, and seconds between flushes.
        filename_suffix: appended to every event file name.
    """

    def __init__(self, log_dir: Optional[Any] = None, comment: str = "", purge_step: Optional[int] = None,
                 max_queue: int = 10, flush_secs: int = 120, filename_suffix: str = "") -> None:
        if not log_dir:
            stamp = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", stamp + "_" + socket.gethostname() + comment)
        self.log_dir = str(log_dir)
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer: Optional[FileWriter] = None
        self.all_writers: Optional[Dict[str, FileWriter]] = None
        self._get_file_writer()  # the event file exists from construction on, as in torch
        self.default_bins = S.default_bins()

    def _get_file_writer(self) -> FileWriter:
        if self.file_writer is None or self.all_writers is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:
                self.file_writer.add_event(Event(step=self.purge_step, file_version="brain.Event:2"))
                self.file_writer.add_event(Event(step=self.purge_step,
                                                 session_log=SessionLog(status=SessionLog.START)))
                self.purge_step = None
        return self.file_writer

    def get_logdir(self) -> str:
        return self.log_dir

    def _add(self, summary: Any, global_step: Optional[int], walltime: Optional[float]) -> None:
        self._get_file_writer().add_summary(summary, global_step, walltime)

    # ------------------------------------------------------------------------------------------- scalars
    def add_scalar(self, tag: str, scalar_value: Any, global_step: Optional[int] = None,
                   walltime: Optional[float] = None, new_style: bool = False, double_precision: bool = False) -> None:
        """One scalar (a number, 0-d/1-element tensor or array) at `global_step`."""
        self._add(S.scalar(tag, scalar_value, new_style, double_precision), global_step, walltime)

    def add_scalars(self, main_tag: str, tag_scalar_dict: Dict[str, Any], global_step: Optional[int] = None,
                    walltime: Optional[float] = None) -> None:
        """Several scalars in one chart: each key is written by its own writer in `<log_dir>/<main_tag>_<key>`."""
        walltime = time.time() if walltime is None else walltime
        root = self._get_file_writer().get_logdir()
        for tag, value in tag_scalar_dict.items():
            sub = root + "/" + main_tag.replace("/", "_") + "_" + tag
            fw = self.all_writers.get(sub)
            if fw is None:
                fw = self.all_writers[sub] = FileWriter(sub, self.max_queue, self.flush_secs, self.filename_suffix)
            fw.add_summary(S.scalar(main_tag, value), global_step, walltime)

    def add_tensor(self, tag: str, tensor: Any, global_step: Optional[int] = None,
                   walltime: Optional[float] = None) -> None:
        raise UnsupportedAPIError("SummaryWriter.add_tensor is not supported by mindtorch; log values with "
                                  "add_scalar / add_histogram instead.")

    # ----------------------------------------------------------------------------------------- histograms
    def add_histogram(self, tag: str, values: Any, global_step: Optional[int] = None, bins: Any = "tensorflow",
                      walltime: Optional[float] = None, max_bins: Optional[int] = None) -> None:
        """Histogram of `values` (any shape); `bins` as np.histogram takes it, or 'tensorflow' (the default
        exponential buckets)."""
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        self._add(S.histogram(tag, values, bins, max_bins=max_bins), global_step, walltime)

    def add_histogram_raw(self, tag: str, min: float, max: float, num: int, sum: float,  # noqa: A002
                          sum_squares: float, bucket_limits: Any, bucket_counts: Any,
                          global_step: Optional[int] = None, walltime: Optional[float] = None) -> None:
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        self._add(S.histogram_raw(tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts),
                  global_step, walltime)

    # ------------------------------------------------------------------------------------------- images
    def add_image(self, tag: str, img_tensor: Any, global_step: Optional[int] = None,
                  walltime: Optional[float] = None, dataformats: str = "CHW") -> None:
        """One image, (3, H, W) by default (`dataformats` 'HWC', 'HW'... otherwise); float in [0, 1] or uint8."""
        self._add(S.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_images(self, tag: str, img_tensor: Any, global_step: Optional[int] = None,
                   walltime: Optional[float] = None, dataformats: str = "NCHW") -> None:
        """A batch of images (N, 3, H, W) shown as one grid of 8 per row."""
        self._add(S.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_figure(self, tag: str, figure: Any, global_step: Optional[int] = None, close: bool = True,
                   walltime: Optional[float] = None) -> None:
        """A matplotlib figure (or a list of them, as a grid) rendered to an image."""
        figs = figure if isinstance(figure, list) else [figure]
        images = [_figure_to_chw(f, close) for f in figs]
        if isinstance(figure, list):
            import numpy as np

            self.add_image(tag, np.stack(images), global_step, walltime, dataformats="NCHW")
        else:
            self.add_image(tag, images[0], global_step, walltime, dataformats="CHW")

    # ------------------------------------------------------------------------------------ text, hparams
    def add_text(self, tag: str, text_string: str, global_step: Optional[int] = None,
                 walltime: Optional[float] = None) -> None:
        self._add(S.text(tag, text_string), global_step, walltime)

    def add_hparams(self, hparam_dict: Dict[str, Any], metric_dict: Dict[str, Any],
                    hparam_domain_discrete: Optional[Dict[str, list]] = None, run_name: Optional[str] = None,
                    global_step: Optional[int] = None) -> None:
        """Hyper-parameters and their metrics, as one run (`<log_dir>/<run_name or time.time()>`) of the HParams
        dashboard; the metrics are also logged as scalars there."""
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        exp, start, end = S.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        logdir = os.path.join(self._get_file_writer().get_logdir(), run_name or str(time.time()))
        with SummaryWriter(log_dir=logdir) as w:
            for s in (exp, start, end):
                w.file_writer.add_summary(s, global_step)
            for k, v in metric_dict.items():
                w.add_scalar(k, v, global_step)

    # ----------------------------------------------------------------------------------------- PR curves
    def add_pr_curve(self, tag: str, labels: Any, predictions: Any, global_step: Optional[int] = None,
                     num_thresholds: int = 127, weights: Any = None, walltime: Optional[float] = None) -> None:
        """Precision-recall curve of binary `labels` against `predictions` in [0, 1]."""
        self._add(S.pr_curve(tag, labels, predictions, num_thresholds, weights), global_step, walltime)

    def add_pr_curve_raw(self, tag: str, true_positive_counts: Any, false_positive_counts: Any,
                         true_negative_counts: Any, false_negative_counts: Any, precision: Any, recall: Any,
                         global_step: Optional[int] = None, num_thresholds: int = 127, weights: Any = None,
                         walltime: Optional[float] = None) -> None:
        self._add(S.pr_curve_raw(tag, true_positive_counts, false_positive_counts, true_negative_counts,
                                 false_negative_counts, precision, recall, num_thresholds, weights),
                  global_step, walltime)

    # ---------------------------------------------------------------------------------- not supported
    def _unsupported(self, name: str, why: str) -> None:
        raise UnsupportedAPIError(f"SummaryWriter.{name} is not supported by mindtorch: {why}")

    def add_graph(self, model: Any, input_to_model: Any = None, verbose: bool = False,
                  use_strict_trace: bool = True) -> None:
        self._unsupported("add_graph", "it traces the model with torch.jit; MindSpore's graph can be inspected "
                                       "with mindspore.export(..., file_format='MINDIR') instead")

    def add_onnx_graph(self, prototxt: Any) -> None:
        self._unsupported("add_onnx_graph", "mindtorch has no ONNX export (see torch.onnx.export)")

    def add_embedding(self, mat: Any, metadata: Any = None, label_img: Any = None, global_step: Optional[int] = None,
                      tag: str = "default", metadata_header: Any = None) -> None:
        self._unsupported("add_embedding", "the projector files are not written; log the matrix with numpy")

    def add_video(self, tag: str, vid_tensor: Any, global_step: Optional[int] = None, fps: int = 4,
                  walltime: Optional[float] = None) -> None:
        self._unsupported("add_video", "it needs moviepy's GIF encoder; log frames with add_images")

    def add_audio(self, tag: str, snd_tensor: Any, global_step: Optional[int] = None, sample_rate: int = 44100,
                  walltime: Optional[float] = None) -> None:
        self._unsupported("add_audio", "write the waveform with torchaudio.save instead")

    def add_mesh(self, tag: str, vertices: Any, colors: Any = None, faces: Any = None, config_dict: Any = None,
                 global_step: Optional[int] = None, walltime: Optional[float] = None) -> None:
        self._unsupported("add_mesh", "the mesh plugin's summaries are not written")

    def add_custom_scalars(self, layout: Any) -> None:
        self._unsupported("add_custom_scalars", "the custom-scalars layout is not written; use add_scalars")

    # ------------------------------------------------------------------------------------------ lifetime
    def flush(self) -> None:
        for w in (self.all_writers or {}).values():
            w.flush()

    def close(self) -> None:
        for w in (self.all_writers or {}).values():
            w.flush()
            w.close()
        self.file_writer = self.all_writers = None

    def __enter__(self) -> "SummaryWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _figure_to_chw(figure: Any, close: bool) -> Any:
    """A matplotlib figure rendered on its Agg canvas as a (3, H, W) uint8 array."""
    import matplotlib.backends.backend_agg as agg
    import numpy as np

    canvas = agg.FigureCanvasAgg(figure)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    if close:
        import matplotlib.pyplot as plt

        plt.close(figure)
    return rgba[:, :, :3].transpose(2, 0, 1).copy()
