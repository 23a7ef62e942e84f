"""default_collate / default_convert (torch.utils.data._utils.collate), done in two stages.

Stage 1 (`collate_numpy`, `convert_numpy`, `to_wire`) runs in a worker process: it applies torch's collate
rules but produces numpy data only, each future tensor wrapped in a `TensorPayload`. No MindSpore kernel runs
in this stage (a forked child of a process that has already run MindSpore ops in its default asynchronous mode
hangs on its first op; creating/reading host tensors is safe, launching kernels is not).
Stage 2 (`from_wire`) runs in the main process and turns payloads into mindtorch tensors, zero-copy
(`from_numpy`). In the main process (`default_collate` called directly, or num_workers=0) the same rules run
with tensors kept as tensors: they are stacked with torch.stack (autograd kept) and default_convert returns
them as they are, as torch does.

dtypes follow torch: Python floats -> float64, Python ints -> int64, bools -> bool, numpy arrays and numpy
scalars keep their dtype, tensors keep theirs.
"""
from __future__ import annotations

import collections.abc
import re
from typing import Any, Sequence

import mindspore as ms
import numpy as np

from .... import _dtype as D

_NP_STR_OBJ = re.compile(r"[SaUO]")
_ERR_FORMAT = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"

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


def _torch_type_name(x: Any) -> str:
    """The type name torch's C++ errors print (CPython's tp_name): "numpy.ndarray" for static extension types,
    the bare name for builtins and Python classes."""
    t = type(x)
    if t.__module__ == "builtins" or t.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE: classes defined in Python
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


def _check_same_shape(shapes: Sequence[tuple]) -> None:
    """torch.stack's error for unequal shapes (first entry that differs from entry 0)."""
    for i, shape in enumerate(shapes):
        if shape != shapes[0]:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 "
                               f"and {list(shape)} at entry {i}")


def _promote_np(dtypes: Sequence[np.dtype]) -> np.dtype:
    """torch.promote_types over numpy dtypes (int64 with float32 is float32 in torch, float64 in numpy)."""
    first = dtypes[0]
    if all(d == first for d in dtypes):
        return first
    try:
        res = D.from_numpy_dtype(first)
        for d in dtypes[1:]:
            res = D.promote_types(res, D.from_numpy_dtype(d))
        return np.dtype(D.to_numpy_dtype(res))
    except TypeError:  # a dtype torch has no equivalent for: numpy's rule is the best we have
        return np.result_type(*dtypes)


def _scalar_list_dtype(batch: Sequence[Any]) -> np.dtype:
    """The dtype torch.tensor(batch) / torch.as_tensor(batch) infers for a list of scalars: Python bools ->
    bool, ints -> int64, floats -> the default dtype, complex -> its complex; numpy scalars keep their dtype;
    all promoted together (torch's rules), with torch's errors for non-numbers."""
    kinds = set(map(type, batch))
    if len(kinds) == 1:  # the common batch of labels: one Python type, one dtype (no per-element work)
        kind = kinds.pop()
        if kind is int or kind is bool or kind is float:
            return np.dtype(D.to_numpy_dtype(D.scalar_dtype(batch[0])))
    dtypes = []
    for b in batch:
        if isinstance(b, (np.generic, np.ndarray)) and not isinstance(b, (np.str_, np.bytes_)):
            dtypes.append(np.asarray(b).dtype)
        elif isinstance(b, ms.Tensor):  # torch.tensor([1, tensor(2)]): a one-element tensor counts as its dtype
            if int(np.prod(b.shape)) != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            dtypes.append(np.dtype(D.to_numpy_dtype(b.dtype)))
        elif isinstance(b, (bool, int, float, complex)):
            dtypes.append(np.dtype(D.to_numpy_dtype(D.scalar_dtype(b))))
        elif isinstance(b, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(b).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(b).__name__}")
    return _promote_np(dtypes)


def _scalar_array(batch: Sequence[Any], dtype: np.dtype) -> np.ndarray:
    values = [_tensor_to_numpy(b).array.reshape(()) if isinstance(b, ms.Tensor) else b for b in batch]
    try:
        return np.array(values, dtype=dtype)
    except OverflowError:  # e.g. 2**63 in an int64 batch
        raise ValueError("Overflow when unpacking long long") from None


def _stack_tensors(batch: Sequence[Any], in_main: bool) -> Any:
    """torch.stack(batch): in the main process a real (differentiable) stack; in a worker a numpy payload with
    torch's promoted dtype. The checks come first so both give torch's errors."""
    for i, b in enumerate(batch):
        if not isinstance(b, ms.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_torch_type_name(b)}")
    _check_same_shape([tuple(b.shape) for b in batch])
    if in_main:
        from .... import stack

        return stack(list(batch), 0)
    dtype = batch[0].dtype
    for b in batch[1:]:
        dtype = D.promote_types(dtype, b.dtype)
    payloads = [_tensor_to_numpy(b) for b in batch]
    stacked = np.stack([p.array for p in payloads])
    if dtype == ms.bfloat16:
        return TensorPayload(stacked, dtype)
    return TensorPayload(stacked.astype(D.to_numpy_dtype(dtype), copy=False))


def _collate(batch: Sequence[Any], in_main: bool) -> Any:
    """torch 1.12's default_collate, branch for branch. Tensors stack for real in the main process (autograd
    kept, as torch.stack) and become numpy payloads in a worker; everything else becomes payloads."""
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, ms.Tensor):
        return _stack_tensors(batch, in_main)
    # torch 1.12 tests the type names "str_" and "string_"; numpy 2 renamed string_ to bytes_
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_", "bytes_"):
        if elem_type.__name__ in ("ndarray", "memmap"):
            if _NP_STR_OBJ.search(elem.dtype.str) is not None:
                raise TypeError(_ERR_FORMAT.format(elem.dtype))
            # 1.12: default_collate([torch.as_tensor(b) for b in batch]), i.e. a stack of all of them
            arrays = [np.asarray(b) for b in batch]
            _check_same_shape([a.shape for a in arrays])
            return TensorPayload(np.stack(arrays).astype(_promote_np([a.dtype for a in arrays]), copy=False))
        if elem.shape == ():  # numpy scalars: torch.as_tensor(batch)
            return TensorPayload(_scalar_array(batch, _scalar_list_dtype(batch)))
        raise TypeError(_ERR_FORMAT.format(elem_type))
    if isinstance(elem, float):  # torch.tensor(batch, dtype=torch.float64)
        for b in batch:
            if not isinstance(b, (int, float, np.integer, np.floating, np.bool_)):
                raise TypeError(f"must be real number, not {type(b).__name__}")
        return TensorPayload(_scalar_array(batch, np.dtype(np.float64)))
    if isinstance(elem, int):  # bools included: torch.tensor(batch) infers bool / int64 / float / complex
        return TensorPayload(_scalar_array(batch, _scalar_list_dtype(batch)))
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        # 1.12 rebuilds the mapping with elem_type(dict); a type that cannot (defaultdict) gives a plain dict
        # (torch >= 2.1 copies the mapping instead and keeps defaultdict)
        out = {key: _collate([d[key] for d in batch], in_main) for key in elem}
        try:
            return elem_type(out)
        except TypeError:
            return out
    if _is_namedtuple(elem):
        return elem_type(*(_collate(samples, in_main) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [_collate(samples, in_main) for samples in transposed]
        try:
            return elem_type([_collate(samples, in_main) for samples in transposed])
        except TypeError:
            return [_collate(samples, in_main) for samples in transposed]
    raise TypeError(_ERR_FORMAT.format(elem_type))


def collate_numpy(batch: Sequence[Any]) -> Any:
    """default_collate's worker stage: tensor leaves are `TensorPayload`s (numpy); no MindSpore kernel runs."""
    return _collate(batch, in_main=False)


def _convert(data: Any, in_main: bool) -> Any:
    """torch 1.12's default_convert. Tensors are returned as they are in the main process (the same object, as
    torch) and travel as payloads from a worker."""
    elem_type = type(data)
    if isinstance(data, ms.Tensor):
        return data if in_main else _tensor_to_numpy(data)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_", "bytes_"):
        if isinstance(data, np.ndarray) and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return TensorPayload(np.asarray(data))
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {key: _convert(data[key], in_main) for key in data}
        try:
            return elem_type(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return elem_type(*(_convert(d, in_main) for d in data))
    if isinstance(data, tuple):
        return [_convert(d, in_main) for d in data]
    if isinstance(data, collections.abc.Sequence):
        try:
            return elem_type([_convert(d, in_main) for d in data])
        except TypeError:
            return [_convert(d, in_main) for d in data]
    return data


def convert_numpy(data: Any) -> Any:
    """default_convert's worker stage (batch_size=None): numpy arrays/scalars -> payloads, recursively."""
    return _convert(data, in_main=False)


# Sequences that never hold tensors: passed through whole (walking a large bytearray item by item would be slow)
_OPAQUE = (str, bytes, bytearray, memoryview, range)


def _map_sequence(fn: Any, data: Sequence[Any]) -> Any:
    """fn over the items of a sequence, rebuilt as torch 1.12's collate builds it: `type(data)(list)`, a list when
    the type cannot be built from one. Any Sequence counts (deque, UserList, user classes), since _collate makes
    those from a batch of them. A non-list/tuple sequence whose items all come back unchanged is returned as it
    is, so a user's own sequence type is not turned into a list on the way."""
    out_list = [fn(d) for d in data]
    if not isinstance(data, (list, tuple)) and all(o is d for o, d in zip(out_list, data)):
        return data
    try:
        return type(data)(out_list)
    except TypeError:
        return out_list


def to_wire(data: Any) -> Any:
    """Make the output of a user collate_fn process-safe: MindSpore tensors (in mappings, namedtuples and any
    Sequence) become `TensorPayload`s; everything else is left alone."""
    if isinstance(data, ms.Tensor):
        return _tensor_to_numpy(data)
    if isinstance(data, _OPAQUE + (np.ndarray, TensorPayload)) or data is None:
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {k: to_wire(v) for k, v in data.items()}
        try:
            return type(data)(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return type(data)(*(to_wire(d) for d in data))
    if isinstance(data, collections.abc.Sequence):
        return _map_sequence(to_wire, data)
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
    if isinstance(data, _OPAQUE + (np.ndarray, ms.Tensor)) or data is None:
        return data
    if isinstance(data, collections.abc.Mapping):
        out = {k: from_wire(v) for k, v in data.items()}
        try:
            return type(data)(out)
        except TypeError:
            return out
    if _is_namedtuple(data):
        return type(data)(*(from_wire(d) for d in data))
    if isinstance(data, collections.abc.Sequence):
        return _map_sequence(from_wire, data)
    return data


def default_collate(batch: Sequence[Any]) -> Any:
    """torch.utils.data.default_collate: stack a list of samples into a batch.

    Example: 4 samples `(image[3,32,32] uint8 array, int label)` -> `[Tensor[4,3,32,32] uint8, Tensor[4] int64]`.
    """
    return from_wire(_collate(batch, in_main=True))


def default_convert(data: Any) -> Any:
    """torch.utils.data.default_convert: numpy arrays (in containers) -> tensors, no batching."""
    return from_wire(_convert(data, in_main=True))
