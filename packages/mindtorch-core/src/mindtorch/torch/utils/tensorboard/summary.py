"""Summary protobufs for the values SummaryWriter logs (scalar, histogram, image, text, hparams, PR curve), built
from numpy arrays with tensorboard's protobuf definitions, in the format torch's writer produces."""
from __future__ import annotations

import io
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from tensorboard.compat.proto.summary_pb2 import HistogramProto, Summary, SummaryMetadata
from tensorboard.compat.proto.tensor_pb2 import TensorProto
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto


def make_np(x: Any) -> np.ndarray:
    """A numpy array of a tensor (bfloat16 widened to float32), array, or Python number."""
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    import mindspore as ms

    if isinstance(x, ms.Tensor):
        if x.dtype == ms.bfloat16:
            x = x.astype(ms.float32)
        return x.asnumpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")


def scalar(name: str, value: Any, new_style: bool = False, double_precision: bool = False) -> Summary:
    """One value: `simple_value`, or (new_style) a tensor with the 'scalars' plugin, as torch."""
    arr = make_np(value).squeeze()
    if arr.ndim != 0:
        raise AssertionError(f"Tensor should contain one element (0 dimensions). Was given size: {arr.size} and "
                             f"{arr.ndim} dimensions.")
    v = float(arr)
    if not new_style:
        return Summary(value=[Summary.Value(tag=name, simple_value=v)])
    proto = TensorProto(double_val=[v], dtype="DT_DOUBLE") if double_precision else \
        TensorProto(float_val=[v], dtype="DT_FLOAT")
    meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="scalars"))
    return Summary(value=[Summary.Value(tag=name, tensor=proto, metadata=meta)])


def default_bins() -> List[float]:
    """TensorFlow's histogram buckets (bins='tensorflow'): +-1e-12 * 1.1**k up to 1e20, and 0."""
    pos = []
    v = 1e-12
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    return [-b for b in reversed(pos)] + [0] + pos


def histogram_proto(values: np.ndarray, bins: Any, max_bins: Optional[int] = None) -> HistogramProto:
    """np.histogram of the values, merged down to max_bins, trimmed to the buckets holding data (plus the empty
    bucket left of the first one: TensorBoard stores right edges only)."""
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, limits = np.histogram(values, bins=bins)
    if max_bins is not None and len(counts) > max_bins:
        group = len(counts) // max_bins
        if len(counts) % group:
            counts = np.pad(counts, (0, group - len(counts) % group))
        counts = counts.reshape(-1, group).sum(axis=-1)
        limits = np.concatenate([limits[:-1:group], limits[-1:]])
    nonzero = np.flatnonzero(counts)
    start, end = (int(nonzero[0]), int(nonzero[-1]) + 1) if nonzero.size else (0, len(counts))
    counts = counts[start - 1:end] if start > 0 else np.concatenate([[0], counts[:end]])
    limits = limits[start:end + 1]
    return HistogramProto(min=values.min(), max=values.max(), num=len(values), sum=values.sum(),
                          sum_squares=values.dot(values), bucket_limit=limits.tolist(), bucket=counts.tolist())


def histogram(name: str, values: Any, bins: Any, max_bins: Optional[int] = None) -> Summary:
    hist = histogram_proto(make_np(values).astype(float), bins, max_bins)
    return Summary(value=[Summary.Value(tag=name, histo=hist)])


def histogram_raw(name: str, min: float, max: float, num: int, sum: float, sum_squares: float,  # noqa: A002
                  bucket_limits: Sequence[float], bucket_counts: Sequence[float]) -> Summary:
    hist = HistogramProto(min=min, max=max, num=num, sum=sum, sum_squares=sum_squares,
                          bucket_limit=bucket_limits, bucket=bucket_counts)
    return Summary(value=[Summary.Value(tag=name, histo=hist)])


def to_hwc(arr: np.ndarray, dataformats: str) -> np.ndarray:
    """An image array in `dataformats` (CHW, HWC, HW, NCHW, NHWC...) as one HWC image (a batch as a grid, 1 or 3
    channels replicated to RGB where torch does)."""
    fmt = dataformats.upper()
    if len(set(fmt)) != len(fmt) or len(fmt) != arr.ndim:
        raise AssertionError(f"size of input tensor and input format are different. tensor shape: {arr.shape}, "
                             f"input_format: {dataformats}")
    if len(fmt) == 4:
        nchw = arr.transpose([fmt.index(c) for c in "NCHW"])
        hwc = make_grid(nchw).transpose(1, 2, 0)
        return hwc
    if len(fmt) == 3:
        hwc = arr.transpose([fmt.index(c) for c in "HWC"])
        return np.concatenate([hwc] * 3, 2) if hwc.shape[2] == 1 else hwc
    hw = arr.transpose([fmt.index(c) for c in "HW"])
    return np.stack([hw] * 3, 2)


def make_grid(nchw: np.ndarray, ncols: int = 8) -> np.ndarray:
    """Images (N, C, H, W) tiled row-major into (3, rows*H, ncols*W), gray replicated to RGB, empty cells 0."""
    if nchw.shape[1] == 1:
        nchw = np.concatenate([nchw] * 3, 1)
    n, c, h, w = nchw.shape
    ncols = min(n, ncols)
    rows = int(np.ceil(float(n) / ncols))
    canvas = np.zeros((c, h * rows, w * ncols), dtype=nchw.dtype)
    for i in range(n):
        r, col = divmod(i, ncols)
        canvas[:, r * h:(r + 1) * h, col * w:(col + 1) * w] = nchw[i]
    return canvas


def image(tag: str, img: Any, rescale: float = 1, dataformats: str = "NCHW") -> Summary:
    """A PNG image; float values are in [0, 1] (scaled by 255), uint8 in [0, 255]; clipped."""
    from PIL import Image

    arr = to_hwc(make_np(img), dataformats)
    scale = 1 if arr.dtype == np.uint8 else 255
    arr = (arr.astype(np.float32) * scale).clip(0, 255).astype(np.uint8)
    height, width, channels = arr.shape
    pil = Image.fromarray(arr)
    pil = pil.resize((int(width * rescale), int(height * rescale)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    pil.save(buf, format="PNG")
    proto = Summary.Image(height=height, width=width, colorspace=channels, encoded_image_string=buf.getvalue())
    return Summary(value=[Summary.Value(tag=tag, image=proto)])


def text(tag: str, text_string: str) -> Summary:
    from tensorboard.plugins.text.plugin_data_pb2 import TextPluginData

    meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(
        plugin_name="text", content=TextPluginData(version=0).SerializeToString()))
    proto = TensorProto(dtype="DT_STRING", string_val=[text_string.encode("utf_8")],
                        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=1)]))
    return Summary(value=[Summary.Value(tag=tag + "/text_summary", metadata=meta, tensor=proto)])


def hparams(hparam_dict: Dict[str, Any], metric_dict: Dict[str, Any],
            hparam_domain_discrete: Optional[Dict[str, list]] = None) -> Tuple[Summary, Summary, Summary]:
    """The hparams plugin's three summaries: experiment, session start (the values), session end."""
    from google.protobuf import struct_pb2
    from tensorboard.plugins.hparams import metadata as hp_meta
    from tensorboard.plugins.hparams.api_pb2 import DataType, Experiment, HParamInfo, MetricInfo, MetricName, Status
    from tensorboard.plugins.hparams.plugin_data_pb2 import HParamsPluginData, SessionEndInfo, SessionStartInfo

    if not isinstance(hparam_dict, dict):
        raise TypeError("parameter: hparam_dict should be a dictionary, nothing logged.")
    if not isinstance(metric_dict, dict):
        raise TypeError("parameter: metric_dict should be a dictionary, nothing logged.")
    discrete = hparam_domain_discrete or {}
    if not isinstance(discrete, dict):
        raise TypeError("parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for k, v in discrete.items():
        if k not in hparam_dict or not isinstance(v, list) or not all(isinstance(d, type(hparam_dict[k])) for d in v):
            raise TypeError(f"parameter: hparam_domain_discrete[{k}] should be a list of same type as "
                            f"hparam_dict[{k}].")

    import mindspore as ms

    infos, start = [], SessionStartInfo()
    for k, v in hparam_dict.items():
        if v is None:
            continue
        if isinstance(v, ms.Tensor):
            v = float(make_np(v).reshape(-1)[0])
        # (bool is an int: it is logged as a number, as torch's order of checks does)
        if isinstance(v, (int, float)):
            start.hparams[k].number_value = v
            kind, field = "DATA_TYPE_FLOAT64", "number_value"
        elif isinstance(v, str):
            start.hparams[k].string_value = v
            kind, field = "DATA_TYPE_STRING", "string_value"
        else:
            raise ValueError("value should be one of int, float, str, bool, or torch.Tensor")
        domain = struct_pb2.ListValue(values=[struct_pb2.Value(**{field: d}) for d in discrete[k]]) \
            if k in discrete else None
        infos.append(HParamInfo(name=k, type=DataType.Value(kind), domain_discrete=domain))

    def wrap(tag: str, **content: Any) -> Summary:
        data = HParamsPluginData(version=hp_meta.PLUGIN_DATA_VERSION, **content).SerializeToString()
        meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name=hp_meta.PLUGIN_NAME,
                                                                      content=data))
        return Summary(value=[Summary.Value(tag=tag, metadata=meta)])

    exp = Experiment(hparam_infos=infos, metric_infos=[MetricInfo(name=MetricName(tag=k)) for k in metric_dict])
    return (wrap(hp_meta.EXPERIMENT_TAG, experiment=exp),
            wrap(hp_meta.SESSION_START_INFO_TAG, session_start_info=start),
            wrap(hp_meta.SESSION_END_INFO_TAG, session_end_info=SessionEndInfo(status=Status.Value("STATUS_SUCCESS"))))


def pr_curve(tag: str, labels: Any, predictions: Any, num_thresholds: int = 127, weights: Any = None) -> Summary:
    """The pr_curves plugin's (6, num_thresholds) tensor: TP, FP, TN, FN, precision, recall per threshold."""
    num_thresholds = min(num_thresholds, 127)
    labels, predictions = make_np(labels), make_np(predictions)
    w = 1.0 if weights is None else make_np(weights)
    bucket = np.floor(predictions * (num_thresholds - 1)).astype(np.int32)
    tp = np.histogram(bucket, bins=num_thresholds, range=(0, num_thresholds - 1),
                      weights=np.asarray(labels, dtype=np.float64) * w)[0]
    fp = np.histogram(bucket, bins=num_thresholds, range=(0, num_thresholds - 1),
                      weights=(1.0 - np.asarray(labels, dtype=np.float64)) * w)[0]
    tp, fp = np.cumsum(tp[::-1])[::-1], np.cumsum(fp[::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    return pr_curve_raw(tag, tp, fp, tn, fn, precision, recall, num_thresholds)


def pr_curve_raw(tag: str, tp: Any, fp: Any, tn: Any, fn: Any, precision: Any, recall: Any,
                 num_thresholds: int = 127, weights: Any = None) -> Summary:
    from tensorboard.plugins.pr_curve.plugin_data_pb2 import PrCurvePluginData

    data = np.stack([make_np(v).astype(np.float64) for v in (tp, fp, tn, fn, precision, recall)])
    meta = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(
        plugin_name="pr_curves",
        content=PrCurvePluginData(version=0, num_thresholds=min(num_thresholds, 127)).SerializeToString()))
    proto = TensorProto(dtype="DT_FLOAT", float_val=data.reshape(-1).tolist(),
                        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=data.shape[0]),
                                                           TensorShapeProto.Dim(size=data.shape[1])]))
    return Summary(value=[Summary.Value(tag=tag, metadata=meta, tensor=proto)])
