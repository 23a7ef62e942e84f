"""default_collate / default_convert (torch.utils.data._utils.collate), done in two stages.

Stage 1 (`collate_numpy`, `convert_numpy`, `to_wire`) runs wherever the batch is assembled, possibly in a
forked worker process: it applies torch's collate rules but produces numpy data only, each future tensor
wrapped in a `TensorPayload`. MindSpore is never touched in this stage (a forked child of a process that has
already run MindSpore ops in its default asynchronous mode hangs on its first op; creating/reading host tensors
is safe, launching kernels is not).
Stage 2 (`from_wire`) runs in the main process and turns payloads into mindtorch tensors, zero-copy
(`from_numpy`).

dtypes follow torch: Python floats -> float64, Python ints -> int64, bools -> bool, numpy arrays and numpy
scalars keep their dtype, tensors keep theirs.
"""
from __future__ import annotations

import collections.abc
import re
from typing import Any, Sequence

import mindspore as ms
import numpy as np

_NP_STR_OBJ = re.compile(r"[SaUO]")
_ERR_FORMAT = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
_CONVERT_ERR = "default_convert: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"

__all__ = ["default_collate", "default_convert", "TensorPayload", "collate_numpy", "convert_numpy", "to_wire",
           "from_wire"]


class TensorPayload:
    """A future tensor travelling as numpy: `array` plus the MindSpore dtype when numpy cannot say it
    (bfloat16)."""

    __slots__ = ("array", "dtype")

    def __init__(self, array: np.ndarray, dtype: Any = None) -> None:
        self.array, self.dtype = array, dtype

    def __reduce__(self):
        return (TensorPayload, (self.array, self.dtype))


def _tensor_to_numpy(t: ms.Tensor) -> TensorPayload:
    """Host copy of a tensor without launching a kernel (asnumpy reads host memory; safe after fork)."""
    arr = ms.Tensor.asnumpy(t)
    dt = t.dtype
    return TensorPayload(arr, dt if dt == ms.bfloat16 else None)


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def collate_numpy(batch: Sequence[Any]) -> Any:
    """torch's default_collate rules; tensor leaves are `TensorPayload`s (numpy)."""
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, ms.Tensor):
        payloads = [_tensor_to_numpy(b) for b in batch]
        shapes = {p.array.shape for p in payloads}
        if len(shapes) != 1:
            got = [p.array.shape for p in payloads]
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {got}")
        return TensorPayload(np.stack([p.array for p in payloads]), payloads[0].dtype)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_", "bytes_"):
        if isinstance(elem, np.ndarray) and _NP_STR_OBJ.search(elem.dtype.str) is not None:
            raise TypeError(_ERR_FORMAT.format(elem.dtype))
        if isinstance(elem, np.ndarray) and elem.shape != ():
            shapes = {b.shape for b in batch}
            if len(shapes) != 1:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {[tuple(b.shape) for b in batch]}")
            return TensorPayload(np.stack(batch))
        return TensorPayload(np.array(batch))  # numpy scalars and 0-d arrays: as_tensor(batch), dtype kept
    if isinstance(elem, float):
        return TensorPayload(np.array(batch, dtype=np.float64))
    if isinstance(elem, bool) and all(isinstance(b, bool) for b in batch):
        return TensorPayload(np.array(batch, dtype=np.bool_))
    if isinstance(elem, int):
        return TensorPayload(np.array(batch, dtype=np.int64))
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        out = {key: collate_numpy([d[key] for d in batch]) for key in elem}
        try:
            return elem_type(out)
        except TypeError:
            return out
    if _is_namedtuple(elem):
        return elem_type(*(collate_numpy(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate_numpy(samples) for samples in transposed]
        try:
            return elem_type([collate_numpy(samples) for samples in transposed])
        except TypeError:
            return [collate_numpy(samples) for samples in transposed]
    raise TypeError(_ERR_FORMAT.format(elem_type))


def convert_numpy(data: Any) -> Any:
    """torch's default_convert rules (batch_size=None): numpy arrays/scalars -> tensors, recursively."""
    elem_type = type(data)
    if isinstance(data, ms.Tensor):
        return _tensor_to_numpy(data)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_", "bytes_"):
        if isinstance(data, np.ndarray) and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return TensorPayload(np.asarray(data))
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {key: convert_numpy(data[key]) for key in data}
        try:
            return elem_type(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return elem_type(*(convert_numpy(d) for d in data))
    if isinstance(data, tuple):
        return [convert_numpy(d) for d in data]
    if isinstance(data, collections.abc.Sequence):
        try:
            return elem_type([convert_numpy(d) for d in data])
        except TypeError:
            return [convert_numpy(d) for d in data]
    return data


def to_wire(data: Any) -> Any:
    """Make the output of a user collate_fn process-safe: MindSpore tensors (in standard containers) become
    `TensorPayload`s; everything else is left alone."""
    if isinstance(data, ms.Tensor):
        return _tensor_to_numpy(data)
    if isinstance(data, (str, bytes, np.ndarray, TensorPayload)) or data is None:
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {k: to_wire(v) for k, v in data.items()}
        try:
            return type(data)(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return type(data)(*(to_wire(d) for d in data))
    if isinstance(data, (list, tuple)):
        out_list = [to_wire(d) for d in data]
        try:
            return type(data)(out_list)
        except TypeError:
            return out_list
    return data


def from_wire(data: Any) -> Any:
    """Main process: `TensorPayload` -> mindtorch Tensor (zero-copy), recursively through containers."""
    if isinstance(data, TensorPayload):
        from ...._tensor import Tensor, from_numpy_array

        if data.dtype is not None:  # bfloat16: numpy carries it as ml_dtypes' bfloat16
            t = ms.Tensor(data.array, dtype=data.dtype)
            t.__class__ = Tensor
            return t
        return from_numpy_array(data.array)
    if isinstance(data, (str, bytes, np.ndarray, ms.Tensor)) or data is None:
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {k: from_wire(v) for k, v in data.items()}
        try:
            return type(data)(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return type(data)(*(from_wire(d) for d in data))
    if isinstance(data, (list, tuple)):
        out_list = [from_wire(d) for d in data]
        try:
            return type(data)(out_list)
        except TypeError:
            return out_list
    return data


def default_collate(batch: Sequence[Any]) -> Any:
    """torch.utils.data.default_collate: stack a list of samples into a batch.

    Example: 4 samples `(image[3,32,32] uint8 array, int label)` -> `[Tensor[4,3,32,32] uint8, Tensor[4] int64]`.
    """
    return from_wire(collate_numpy(batch))


def default_convert(data: Any) -> Any:
    """torch.utils.data.default_convert: numpy arrays (in containers) -> tensors, no batching."""
    return from_wire(convert_numpy(data))
