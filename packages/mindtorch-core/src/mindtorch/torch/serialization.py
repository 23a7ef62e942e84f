"""torch.save / torch.load speaking PyTorch's own file formats, without importing PyTorch.

Formats
- Zip (torch >= 1.6 default, what we write): ``<root>/data.pkl`` is a protocol-2 pickle in which every storage
  is a persistent id ``('storage', torch.<X>Storage, key, location, numel)`` and every tensor is
  ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, OrderedDict())``; the raw
  little-endian bytes of storage ``key`` are the uncompressed record ``<root>/data/<key>``, aligned to 64 bytes
  (so real torch can also ``mmap`` our files). Plus ``version``, ``byteorder``, ``.format_version``,
  ``.storage_alignment`` records, as torch 2.x writes them.
- Legacy (``_use_new_zipfile_serialization=False``, torch < 1.6): a stream of pickles: magic number, protocol
  version, sys_info, the object pickle (persistent ids ``('storage', torch.<X>Storage, key, location, numel,
  None)``), the sorted storage key list, then each storage as ``int64 numel`` + raw bytes. Read and written.

Tensors sharing one storage are written once and share memory again after load (views are rebuilt as MindSpore
views of one base tensor; layouts that no chain of slicing/permute can express are copied, see `_make_view`).

Safety: ``torch.load`` takes ``weights_only`` (a torch >= 1.13 keyword that 1.12 lacks) and defaults it to True
(torch >= 2.6 behaviour, the safe one): a restricted
unpickler resolves only the globals torch's ``_weights_only_unpickler`` allows (tensor rebuild functions,
storage types, dtypes, ``torch.Size``, ``torch.device``, ``collections.OrderedDict``, a few builtins) and
refuses anything else with ``pickle.UnpicklingError``, so a hostile checkpoint cannot run code.
Note: torch 1.12's default was ``weights_only=False``; we deliberately keep the safe default (DESIGN.md §6).

Writes to a path are atomic: a temp file in the same directory, flush + fsync, ``os.replace``.
"""
from __future__ import annotations

import _compat_pickle
import collections
import ctypes
import errno
import io
import os
import pickle
import pickletools
import struct
import sys
import tempfile
import types
import zipfile
from typing import IO, Any, BinaryIO, Callable, Dict, List, Optional, Union

import mindspore as ms
import numpy as np

from . import _dtype as D
from ._device import device as _device_cls
from ._tensor import Size, Tensor
from .storage import LEGACY_CLASSES, TypedStorage

__all__ = ["save", "load", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
_LEGACY_PROTOCOL_VERSION = 1001
_ALIGN = 64
_CHUNK = 64 << 20

FileLike = Union[str, os.PathLike, BinaryIO, IO[bytes]]

# torch storage class name <-> dtype (storage.py's legacy classes). bf16 has no numpy dtype: its bytes travel as
# uint16.
_STORAGE_NAME = {cls.dtype: cls.__name__ for cls in LEGACY_CLASSES}
_STORAGE_DTYPE = {v: k for k, v in _STORAGE_NAME.items()}
_DTYPE_NAMES = {
    "float32": D.float32, "float": D.float32, "float64": D.float64, "double": D.float64, "float16": D.float16,
    "half": D.float16, "bfloat16": D.bfloat16, "int8": D.int8, "int16": D.int16, "short": D.int16,
    "int32": D.int32, "int": D.int32, "int64": D.int64, "long": D.int64, "uint8": D.uint8, "bool": D.bool,
    "complex64": D.complex64, "cfloat": D.complex64, "complex128": D.complex128, "cdouble": D.complex128,
    "uint16": D.uint16, "uint32": D.uint32, "uint64": D.uint64,
}


def _np_dtype(d: Any) -> np.dtype:
    return np.dtype(np.uint16) if d == D.bfloat16 else np.dtype(D.to_numpy_dtype(d))


# ===================================================================================================== save
class _Global:
    """A reference to a torch global (e.g. ``torch._utils._rebuild_tensor_v2``), written as a GLOBAL opcode
    without importing torch. Callable only so that pickle's `save_reduce` accepts it as a reduce function."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any) -> Any:  # pragma: no cover - never called, only pickled
        raise RuntimeError(f"{self.module}.{self.name} is a pickle placeholder")


_REBUILD_TENSOR = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_ORDERED_DICT = collections.OrderedDict


class _StorageRef:
    """One storage to write: its key, dtype, element count and where its bytes live in memory."""

    __slots__ = ("key", "dtype", "numel", "ptr", "nbytes", "owner")

    def __init__(self, key: str, dtype: Any, numel: int, ptr: int, nbytes: int, owner: Any) -> None:
        self.key, self.dtype, self.numel, self.ptr, self.nbytes, self.owner = key, dtype, numel, ptr, nbytes, owner

    def raw(self) -> memoryview:
        """The storage bytes, zero-copy (a view of the MindSpore tensor's host memory)."""
        if self.nbytes == 0:
            return memoryview(b"")
        if isinstance(self.owner, np.ndarray):  # a host copy (device memory or no materialised storage)
            return memoryview(self.owner).cast("B")
        buf = (ctypes.c_uint8 * self.nbytes).from_address(self.ptr)
        return memoryview(buf).cast("B")


def _tensor_layout(t: ms.Tensor) -> tuple:
    """(storage data_ptr, storage nbytes, storage_offset, stride) of a MindSpore tensor."""
    st = ms.Tensor.untyped_storage(t)
    return st.data_ptr(), st.nbytes(), int(ms.Tensor.storage_offset(t)), tuple(int(s) for s in ms.Tensor.stride(t))


# The standard library's own save methods for the types pickle handles itself. Importing MindSpore imports dill,
# which rewrites `pickle._Pickler.dispatch` (the pure-Python pickler's table) with its own savers: through them a
# class defined in a function was pickled by value (a file torch cannot load) or recursed until RecursionError.
_STDLIB_SAVERS = {
    type(None): "save_none", bool: "save_bool", int: "save_long", float: "save_float", bytes: "save_bytes",
    bytearray: "save_bytearray", pickle.PickleBuffer: "save_picklebuffer", str: "save_str", tuple: "save_tuple",
    list: "save_list", dict: "save_dict", set: "save_set", frozenset: "save_frozenset",
    types.FunctionType: "save_global", type: "save_type",
}


class _TorchPickler(pickle._Pickler):  # type: ignore[misc]
    """Pure-Python pickler (its `save` can be overridden) that writes torch's globals for our objects."""

    dispatch = {t: getattr(pickle._Pickler, name) for t, name in _STDLIB_SAVERS.items()}

    def __init__(self, file: IO[bytes], protocol: int, legacy: bool = False) -> None:
        super().__init__(file, protocol)
        self.legacy = legacy  # the legacy format's persistent ids carry a 6th field (view metadata, None)
        self.storages: Dict[int, _StorageRef] = {}  # storage data_ptr -> ref (shared storages written once)
        self.host_memory = _host_memory()  # CPU target: storages are host memory we can stream from directly

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, _StorageRef):
            pid = ("storage", _Global("torch", _STORAGE_NAME[obj.dtype]), obj.key, "cpu", obj.numel)
            return pid + (None,) if self.legacy else pid
        return None

    def _write_global(self, module: str, name: str) -> None:
        self.write(pickle.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n")

    def save(self, obj: Any, save_persistent_id: bool = True) -> None:  # noqa: C901
        if isinstance(obj, _Global):
            self._write_global(obj.module, obj.name)
            return
        if isinstance(obj, D.dtype):
            name = D.torch_name(obj)
            self._write_global("torch", name.split(".", 1)[1])
            return
        if isinstance(obj, ms.Tensor) and not isinstance(obj, _StorageRef):
            if getattr(obj, "is_sparse", False):  # (its data is the dense value: saving it would drop the sparsity)
                raise NotImplementedError("torch.save of a sparse COO tensor is not supported by mindtorch: save "
                                          "its _indices(), _values() and size and rebuild it with "
                                          "torch.sparse_coo_tensor after loading")
            memo = self.memo.get(id(obj))
            if memo is not None:
                self.write(self.get(memo[0]))
                return
            if isinstance(obj, ms.Parameter):
                data = self._tensor_reduce_args(obj)
                rg = bool(getattr(obj, "requires_grad", True))
                self.save_reduce(_REBUILD_PARAMETER, (_TensorProxy(data), rg, _ORDERED_DICT()), obj=obj)
            else:
                self.save_reduce(_REBUILD_TENSOR, self._tensor_reduce_args(obj), obj=obj)
            return
        if isinstance(obj, _TensorProxy):
            self.save_reduce(_REBUILD_TENSOR, obj.args)
            return
        if isinstance(obj, TypedStorage):  # torch saves a storage as its persistent id alone
            self.save(self._tensor_reduce_args(obj._data)[0])
            return
        if type(obj) is Size:
            self.save_reduce(_Global("torch", "Size"), (tuple(obj),), obj=obj)
            return
        if isinstance(obj, _device_cls):
            args = (obj.type,) if obj.index is None else (obj.type, obj.index)
            self.save_reduce(_Global("torch", "device"), args, obj=obj)
            return
        super().save(obj, save_persistent_id)

    def _tensor_reduce_args(self, t: ms.Tensor) -> tuple:
        dtype = t.dtype
        if dtype not in _STORAGE_NAME:
            raise pickle.PicklingError(f"torch.save: unsupported tensor dtype {dtype}")
        ptr, nbytes, offset, stride = _tensor_layout(t)
        shape = tuple(int(s) for s in ms.Tensor.shape.fget(t))
        itemsize = D._ITEMSIZE[dtype]
        if not self.host_memory or (nbytes and not ptr):
            # Storage memory is not host memory we may read (GPU/Ascend) or not materialised: save a
            # contiguous host copy of this tensor alone (storage sharing is not preserved on this path).
            arr = np.ascontiguousarray(ms.Tensor.asnumpy(t)).reshape(-1)
            arr = arr.view(np.uint16) if dtype == D.bfloat16 else arr
            copy_ref = _StorageRef(str(len(self.storages)), dtype, arr.size, 0, arr.nbytes, arr)
            self.storages[-len(self.storages) - 1] = copy_ref
            rg = bool(getattr(t, "requires_grad", False)) and not isinstance(t, ms.Parameter)
            return (copy_ref, 0, shape, _contiguous_strides(shape), rg, _ORDERED_DICT())
        ref = self.storages.get(ptr) if nbytes else None
        if ref is None or ref.dtype != dtype or ref.nbytes != nbytes:
            ref = _StorageRef(str(len(self.storages)), dtype, nbytes // itemsize, ptr, nbytes, t)
            self.storages[ptr if nbytes else -len(self.storages) - 1] = ref
        rg = bool(getattr(t, "requires_grad", False)) and not isinstance(t, ms.Parameter)
        return (ref, offset, shape, stride, rg, _ORDERED_DICT())


class _TensorProxy:
    """The plain-tensor part of a Parameter (pickled as `_rebuild_tensor_v2(...)` inside `_rebuild_parameter`)."""

    __slots__ = ("args",)

    def __init__(self, args: tuple) -> None:
        self.args = args


def _zip_write_record(zf: zipfile.ZipFile, name: str, data: Union[bytes, memoryview]) -> None:
    """Write one uncompressed record whose data starts on a 64-byte boundary (torch's alignment)."""
    nbytes = len(data) if isinstance(data, bytes) else data.nbytes
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    info.file_size = nbytes
    zip64 = nbytes > zipfile.ZIP64_LIMIT
    offset = zf.fp.tell() if zf.fp is not None else 0
    header = 30 + len(name.encode()) + (20 if zip64 else 0) + 4  # + 4: the padding extra field's own header
    pad = (-(offset + header)) % _ALIGN
    info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # 'FB': the extra-field id torch uses
    with zf.open(info, "w", force_zip64=zip64) as out:
        view = memoryview(data).cast("B") if not isinstance(data, bytes) else memoryview(data)
        for start in range(0, nbytes, _CHUNK):  # chunks: no second full copy of a large storage
            out.write(view[start:start + _CHUNK])


def _is_ours(obj: Any) -> bool:
    """Objects only _TorchPickler can write in torch's form (torch globals that need no torch import)."""
    return (isinstance(obj, (ms.Tensor, TypedStorage, _TensorProxy, _Global, _device_cls, D.dtype))
            or type(obj) is Size)


def _dump(obj: Any, f: IO[bytes], protocol: int, pickle_module: Any, legacy: bool = False) -> _TorchPickler:
    """Pickle `obj` into `f` (no storage bytes); returns the pickler, which knows the storages to write.

    With another pickle module, its `Pickler` pickles everything (as torch does), except mindtorch's objects: it
    hands those out as persistent ids, and each one is then spliced back in as the opcodes _TorchPickler writes
    for it (torch's globals, which such a pickler cannot write without importing torch; see `_splice`)."""
    ours = _TorchPickler(f, protocol, legacy)
    if pickle_module is None or pickle_module is pickle:
        ours.dump(obj)
        return ours
    objects: List[Any] = []
    index: Dict[int, int] = {}

    class _ModulePickler(pickle_module.Pickler):  # type: ignore[name-defined,misc]
        def persistent_id(self, o: Any) -> Any:
            if not _is_ours(o):
                return None
            k = index.get(id(o))
            if k is None:
                k = index[id(o)] = len(objects)
                objects.append(o)  # (kept alive: ids stay unique while pickling)
            return k

    buf = io.BytesIO()
    _ModulePickler(buf, protocol).dump(obj)
    f.write(_splice(buf.getvalue(), objects, ours, protocol))
    return ours


def _memo_op(get: bool, idx: int, protocol: int) -> bytes:
    if protocol == 0:
        return (b"g" if get else b"p") + str(idx).encode() + b"\n"
    if idx < 256:
        return (pickle.BINGET if get else pickle.BINPUT) + bytes([idx])
    return (pickle.LONG_BINGET if get else pickle.LONG_BINPUT) + struct.pack("<I", idx)


def _splice(data: bytes, objects: List[Any], ours: _TorchPickler, protocol: int) -> bytes:
    """Replace each `<index> BINPERSID` (or `PERSID index`) of another pickler's stream by the opcodes
    `ours` writes for objects[index]: the first time memoised at a memo index past the stream's own, later
    times fetched from it, so one tensor referenced twice loads as one object, as in torch. FRAMEs are dropped
    (their lengths no longer hold; frames are optional) and MEMOIZE becomes an explicit PUT of the index it
    stood for, so the extra memo entries shift nothing."""
    ops = list(pickletools.genops(data))
    bounds = [pos for _, _, pos in ops] + [len(data)]
    seen: set = set()
    for op, arg, _ in ops:  # the memo indices the stream uses (MEMOIZE: the memo's size at that point)
        if op.name == "MEMOIZE":
            seen.add(len(seen))
        elif op.name in ("PUT", "BINPUT", "LONG_BINPUT"):
            seen.add(int(arg))
    base = max(seen) + 1 if seen else 0
    user_memo = 0
    done: set = set()
    frag = io.BytesIO()
    ours.fast = True  # fragments memoise nothing of their own: their indices would clash with the stream's
    ours.write = ours.framer.write = ours.framer.file_write = frag.write  # type: ignore[method-assign]
    out = bytearray()
    prev_start, prev_arg = 0, None
    for i, (op, arg, pos) in enumerate(ops):
        if op.name == "FRAME":
            continue
        if op.name in ("BINPERSID", "PERSID"):
            if op.name == "BINPERSID":  # the op before pushed the index: it goes too
                del out[prev_start:]
                k = int(prev_arg)
            else:
                k = int(arg)
            if k in done:
                out += _memo_op(True, base + k, protocol)
            else:
                frag.seek(0)
                frag.truncate()
                ours.save(objects[k])
                out += frag.getvalue() + _memo_op(False, base + k, protocol)
                done.add(k)
            prev_start = len(out)
            continue
        prev_start, prev_arg = len(out), arg
        if op.name == "MEMOIZE":
            out += _memo_op(False, user_memo, protocol)
            user_memo += 1
            continue
        if op.name in ("PUT", "BINPUT", "LONG_BINPUT"):
            user_memo = max(user_memo, int(arg) + 1)
        out += data[pos:bounds[i + 1]]
    return bytes(out)


def _save_zip(obj: Any, f: BinaryIO, pickle_protocol: int, pickle_module: Any = pickle) -> None:
    ms_sync()
    buf = io.BytesIO()
    pickler = _dump(obj, buf, pickle_protocol, pickle_module)
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        _zip_write_record(zf, "archive/data.pkl", buf.getvalue())
        _zip_write_record(zf, "archive/.format_version", b"1")
        _zip_write_record(zf, "archive/.storage_alignment", str(_ALIGN).encode())
        _zip_write_record(zf, "archive/byteorder", sys.byteorder.encode())
        for ref in sorted(pickler.storages.values(), key=lambda r: int(r.key)):
            _zip_write_record(zf, f"archive/data/{ref.key}", ref.raw())
        _zip_write_record(zf, "archive/version", b"3\n")


def _save_legacy(obj: Any, f: BinaryIO, pickle_protocol: int, pickle_module: Any = pickle) -> None:
    """torch's pre-1.6 stream format (what `_use_new_zipfile_serialization=False` writes in torch 1.12)."""
    ms_sync()
    module = pickle if pickle_module is None else pickle_module
    sys_info = dict(protocol_version=_LEGACY_PROTOCOL_VERSION, little_endian=sys.byteorder == "little",
                    type_sizes=dict(short=2, int=4, long=4))
    for header in (_LEGACY_MAGIC, _LEGACY_PROTOCOL_VERSION, sys_info):
        module.dump(header, f, protocol=pickle_protocol)
    pickler = _dump(obj, f, pickle_protocol, pickle_module, legacy=True)
    refs = {ref.key: ref for ref in pickler.storages.values()}
    keys = sorted(refs)  # torch sorts the keys as strings
    module.dump(keys, f, protocol=pickle_protocol)
    for key in keys:
        ref = refs[key]
        f.write(struct.pack("<q" if sys.byteorder == "little" else ">q", ref.numel))
        data = ref.raw()
        for start in range(0, data.nbytes, _CHUNK):
            f.write(data[start:start + _CHUNK])


def _host_memory() -> bool:
    from . import _ms

    return _ms.device_target() == "CPU"



def ms_sync() -> None:
    """Finish queued MindSpore work before reading tensor memory directly."""
    from . import _ms

    _ms.sync()


def save(obj: Any, f: FileLike, pickle_module: Any = pickle, pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True) -> None:
    """torch.save: write `obj` (tensors, state_dicts, nested containers...) in PyTorch's zip format, or in the
    legacy stream format with `_use_new_zipfile_serialization=False`.

    `f` is a path (str / os.PathLike: written atomically) or a writable binary file object. `pickle_module`: any
    module with pickle's `Pickler` (and `dump`, for the legacy format), e.g. dill; its Pickler pickles the object.
    """
    writer = _save_zip if _use_new_zipfile_serialization else _save_legacy
    if pickle_module is not None and pickle_module is not pickle and not hasattr(pickle_module, "Pickler"):
        raise AttributeError(f"module '{getattr(pickle_module, '__name__', pickle_module)}' has no attribute "
                             "'Pickler'")
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):  # 1.12 opened the path itself: these are open()'s errors, naming the user's path
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
        except OSError as e:  # a missing or unwritable directory: not the temp file's name
            raise type(e)(e.errno, e.strerror, path) from None
        try:
            with os.fdopen(fd, "wb") as fh:
                writer(obj, fh, pickle_protocol, pickle_module)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return
    if not hasattr(f, "write"):
        raise AttributeError(f"torch.save: expected a file path or a writable file object, got {type(f).__name__}")
    writer(obj, f, pickle_protocol, pickle_module)


# ===================================================================================================== load
class _StorageType:
    """What ``torch.FloatStorage`` etc. unpickle to: just the dtype."""

    __slots__ = ("dtype",)

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


class _LoadedStorage(TypedStorage):
    """A loaded storage: raw bytes as a numpy array of its dtype, plus (lazily) one MindSpore base tensor
    that every tensor viewing this storage is a view of. A TypedStorage: what torch.load returns for a saved
    storage (1.12 gives a `torch.storage._TypedStorage`); its elements are that base tensor's."""

    def __init__(self, array: np.ndarray, dtype: Any) -> None:
        self.array, self.dtype, self._base = array, dtype, None

    def _materialize(self) -> Tensor:
        return _as_tensor(self.base())

    def size(self) -> int:
        return int(self.array.size)

    def base(self) -> ms.Tensor:
        if self._base is None:
            if self.dtype == D.bfloat16:  # no numpy bf16: widen exactly to f32, then cast (a copy)
                f32 = _bf16_bits_to_f32(self.array)
                self._base = ms.Tensor(f32, dtype=D.bfloat16)
            else:
                self._base = ms.from_numpy(self.array)
        return self._base


def _bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 bit patterns (uint16) -> the same values as float32 (exact)."""
    flat = np.asarray(bits, dtype=np.uint16).reshape(-1).astype(np.uint32)
    return (flat << np.uint32(16)).view(np.float32).reshape(np.shape(bits))


def _contiguous_strides(size: tuple) -> tuple:
    out, acc = [], 1
    for s in reversed(size):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


def _is_contiguous(size: tuple, stride: tuple) -> bool:
    expected = 1
    for n, s in zip(reversed(size), reversed(stride)):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


def _make_view(base: ms.Tensor, total: int, offset: int, size: tuple, stride: tuple) -> Optional[ms.Tensor]:
    """A MindSpore view of 1-d `base` with torch layout (offset, size, stride), or None if not expressible.

    Built as: flat slice -> reshape to a contiguous "parent" -> slice each dim -> permute back. Works for
    every layout made by slicing (with steps), narrow, select, transpose/permute of a contiguous tensor.
    """
    numel = int(np.prod(size)) if size else 1
    if _is_contiguous(size, stride):
        if offset + numel > total:
            return None
        return ms.Tensor.view(base[offset:offset + numel], size)
    if any(s <= 0 for n, s in zip(size, stride) if n > 1):
        return None  # expanded / overlapping layouts: copy
    real = sorted((i for i in range(len(size)) if size[i] > 1), key=lambda i: -stride[i])
    ones = [i for i in range(len(size)) if size[i] == 1]
    order = ones + real
    first_span = size[real[0]] * stride[real[0]]
    strides = [first_span] * len(ones) + [stride[i] for i in real]
    sizes = [1] * len(ones) + [size[i] for i in real]
    k = len(order)
    if k == 1:  # one strided dim: a stepped slice of the flat storage
        need = (sizes[0] - 1) * strides[0] + 1
        if offset + need > total:
            return None
        v = base[offset:offset + need:strides[0]]
    else:
        # Parent lengths: dim j spans strides[j-1] / strides[j] elements (the last dim is stepped through).
        lengths = [sizes[0]]
        for j in range(1, k):
            if j < k - 1 and strides[j - 1] % strides[j]:
                return None
            lengths.append(strides[j - 1] // strides[j] if j < k - 1 else strides[j - 1])
        needs = sizes[:-1] + [(sizes[-1] - 1) * strides[-1] + 1]
        pstrides = [strides[j - 1] if j else 0 for j in range(1, k)] + [1]
        pstrides[0] = strides[0]
        v = None
        for pstart in (offset, 0):  # parent at the view's offset, or at the storage start (fits the end)
            rel = offset - pstart
            starts = [(rel // pstrides[j]) % lengths[j] for j in range(1, k)]
            starts = [rel // pstrides[0]] + starts
            if sum(st * ps for st, ps in zip(starts, pstrides)) != rel:
                continue
            if any(starts[j] + needs[j] > lengths[j] for j in range(1, k)):
                continue
            first = starts[0] + sizes[0]
            span = first * pstrides[0]
            if pstart + span > total:
                continue
            parent = ms.Tensor.view(base[pstart:pstart + span], (first,) + tuple(lengths[1:]))
            index = tuple(slice(starts[j], starts[j] + sizes[j]) for j in range(k - 1))
            v = parent[index + (slice(starts[-1], starts[-1] + needs[-1], strides[-1]),)]
            break
        if v is None:
            return None
    inverse = [order.index(i) for i in range(len(size))]
    if inverse != list(range(len(size))):
        v = ms.Tensor.permute(v, *inverse)
    if (tuple(ms.Tensor.shape.fget(v)) != tuple(size) or ms.Tensor.storage_offset(v) != offset
            or any(a != b for a, b, n in zip(ms.Tensor.stride(v), stride, size) if n > 1)):
        return None  # MindSpore built something else: never hand out a wrong view
    return v


def _as_tensor(t: ms.Tensor) -> Tensor:
    t.__class__ = Tensor
    return t


def _rebuild_tensor(storage: _LoadedStorage, storage_offset: int, size: Any, stride: Any) -> Tensor:
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    dtype = storage.dtype
    numel = int(np.prod(size)) if size else 1
    if numel == 0:
        arr = np.zeros(size, dtype=np.float32 if dtype == D.bfloat16 else _np_dtype(dtype))
        return _as_tensor(ms.Tensor(arr, dtype=dtype) if dtype == D.bfloat16 else ms.Tensor(arr))
    view = None
    if dtype != D.bfloat16:  # bf16 bases are converted copies, keep it simple: no views
        view = _make_view(storage.base(), storage.array.size, storage_offset, size, stride)
    if view is None:  # not expressible as a view: materialise a copy of the strided layout
        item = storage.array.itemsize
        arr = np.lib.stride_tricks.as_strided(storage.array[storage_offset:], size,
                                              tuple(s * item for s in stride), writeable=False)
        if dtype == D.bfloat16:
            f32 = _bf16_bits_to_f32(arr)
            return _as_tensor(ms.Tensor(f32, dtype=D.bfloat16))
        arr = np.array(arr)
        return _as_tensor(ms.from_numpy(arr) if arr.ndim else ms.Tensor(arr))
    return _as_tensor(view)


def _rebuild_tensor_v2(storage: _LoadedStorage, storage_offset: int, size: Any, stride: Any,
                       requires_grad: bool = False, backward_hooks: Any = None, metadata: Any = None) -> Tensor:
    t = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad:
        _set_requires_grad(t)
    return t


def _set_requires_grad(t: Any) -> None:
    fn = getattr(t, "requires_grad_", None)
    if fn is not None:
        fn(True)
    else:  # autograd not wired yet: record the flag the way MindSpore does
        t.requires_grad = True


def _rebuild_parameter(data: Any, requires_grad: bool, backward_hooks: Any = None, *state: Any) -> Any:
    try:
        from .nn.parameter import Parameter  # our nn.Parameter when the nn package provides it
    except ImportError:
        Parameter = ms.Parameter
    return Parameter(data, requires_grad=bool(requires_grad))


def _rebuild_parameter_with_state(data: Any, requires_grad: bool, backward_hooks: Any, state: Any) -> Any:
    p = _rebuild_parameter(data, requires_grad, backward_hooks)
    if state:
        for k, v in dict(state).items():
            setattr(p, k, v)
    return p


def _rebuild_from_type_v2(func: Callable, new_type: Any, args: tuple, state: Any) -> Any:
    return func(*args)


def _device_from_torch(*args: Any) -> _device_cls:
    return _device_cls(*args)


def _build_allowed() -> Dict[str, Any]:
    """torch's weights_only allow-list (torch/_weights_only_unpickler.py `_get_allowed_globals`), mapped to ours.

    Exactly torch's list (e.g. frozenset and slice are refused, as torch 2.x refuses them by default)."""
    allowed: Dict[str, Any] = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch.nn.parameter.Parameter": _rebuild_parameter,
        "torch.serialization._get_layout": lambda name: name,
        "torch.Size": Size,
        "torch.Tensor": Tensor,
        "torch.device": _device_from_torch,
        "torch._utils._rebuild_tensor": lambda storage, offset, size, stride: _rebuild_tensor(
            storage, offset, size, stride),
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
        "builtins.set": set,
        "builtins.bytearray": bytearray,
        "builtins.complex": complex,
        "_codecs.encode": _codecs_encode,
    }
    for name, st_dtype in _STORAGE_DTYPE.items():
        allowed[f"torch.{name}"] = _StorageType(st_dtype)
    allowed["torch.storage.UntypedStorage"] = _StorageType(D.uint8)
    allowed["torch.UntypedStorage"] = _StorageType(D.uint8)
    for name, d in _DTYPE_NAMES.items():
        allowed[f"torch.{name}"] = d
    return allowed


def _codecs_encode(obj: str, encoding: str = "utf-8", errors: str = "strict") -> bytes:
    # pickle protocol 2 writes bytes objects as _codecs.encode(str, 'latin1'); torch allows exactly this.
    import codecs

    return codecs.encode(obj, encoding, errors)


_ALLOWED = _build_allowed()
_WEIGHTS_ONLY_HELP = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only "
    "if you trust the source of the checkpoint. \n\t(1) Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file "
    "from a trusted source.\n\t(2) mindtorch has no `add_safe_globals`: load with weights_only=False in a "
    "trusted setting.\n WeightsUnpickler error: {msg}\n\nCheck the documentation of torch.load to learn more "
    "about types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html.")


def _full_find(module: str, name: str) -> Any:
    """weights_only=False: torch.* names map to ours; everything else resolves normally (may run code)."""
    key = f"{module}.{name}"
    if key in _ALLOWED:
        return _ALLOWED[key]
    if module == "torch" or module.startswith("torch."):
        import importlib

        ours = "mindtorch." + module
        try:
            return getattr(importlib.import_module(ours), name)
        except (ImportError, AttributeError):
            raise pickle.UnpicklingError(
                f"torch.load: the file references {key}, which mindtorch does not provide") from None
    return None


_KNOWN_LOCATIONS = ("cpu", "mps")  # 1.12's registered tags, with 'cuda*' (and this product's 'npu*', see below)


def _check_location(location: str) -> None:
    """1.12's default_restore_location: a location no registered device claims raises. CUDA locations load
    onto the device MindSpore runs on (a deliberate choice: checkpoints saved on GPUs load without
    map_location), as do the accelerator names this product's devices report ('npu' on Ascend)."""
    if location in _KNOWN_LOCATIONS:
        return
    if location.startswith(("cuda", "npu")):
        _device_cls(location)  # a malformed one ('cuda:x') raises torch.device's error, as 1.12's parse did
        return
    # 1.12 names the storage handed to restore_location: an untyped one
    raise RuntimeError(f"don't know how to restore data location of torch.storage._UntypedStorage (tagged with "
                       f"{location})")


def _restorer(map_location: Any) -> Callable[[np.ndarray, Any, str], np.ndarray]:
    """1.12's _get_restore_location: (storage bytes as loaded, dtype, saved location) -> the array to use.

    A callable gets the storage as 1.12 hands it over (untyped: a byte storage) and the location string, once
    per storage; what it returns, unless None, is used (its bytes, read as the storage's dtype); None falls back
    to the saved location. A dict maps locations, a string or device replaces them."""
    def restore(arr: np.ndarray, dtype: Any, location: str) -> np.ndarray:
        if map_location is None:
            _check_location(location)
        elif isinstance(map_location, dict):
            _check_location(str(map_location.get(location, location)))
        elif isinstance(map_location, (str, _device_cls)):
            _check_location(str(map_location))
        else:
            handed = _LoadedStorage(arr.reshape(-1).view(np.uint8), D.uint8)
            result = map_location(handed, location)
            if result is None:
                _check_location(location)
            elif result is not handed:
                return _storage_array(result, dtype, arr.nbytes)
        return arr

    return restore


def _storage_array(storage: Any, dtype: Any, nbytes: int) -> np.ndarray:
    """The bytes of a storage a map_location callable returned, read as `dtype` (1.12 wraps what it returns
    with `_TypedStorage(wrap_storage=..., dtype=dtype)`)."""
    if not isinstance(storage, TypedStorage):
        raise TypeError(f"torch.load: map_location returned {type(storage).__name__}, expected a storage")
    if isinstance(storage, _LoadedStorage):
        raw = storage.array.reshape(-1).view(np.uint8)
    else:
        raw = ms.Tensor.asnumpy(storage._data).reshape(-1).view(np.uint8)
    if raw.nbytes != nbytes:
        raise RuntimeError(f"torch.load: map_location returned a storage of {raw.nbytes} bytes for one of {nbytes}")
    return raw.view(_np_dtype(dtype))


class _Loader:
    """Shared unpickling machinery: persistent ids -> storages, globals -> allowed/ours."""

    def __init__(self, weights_only: bool, storage_reader: Callable[[str, Any, int], np.ndarray],
                 pickle_module: Any = None, load_args: Optional[Dict[str, Any]] = None,
                 restore: Optional[Callable[[np.ndarray, Any, str], np.ndarray]] = None) -> None:
        self.weights_only = weights_only
        self.storage_reader = storage_reader
        self.storages: Dict[str, _LoadedStorage] = {}
        # another pickle module's Unpickler does the unpickling (1.12: a subclass of pickle_module.Unpickler)
        self.unpickler_base = pickle.Unpickler if pickle_module is None else pickle_module.Unpickler
        self.load_args = {"encoding": "utf-8", **(load_args or {})}
        self.restore = restore  # None: storages are taken as they are (a first pass that only sizes them)

    def unpickler(self, data_file: IO[bytes]) -> pickle.Unpickler:
        loader = self

        class _Unpickler(self.unpickler_base):  # type: ignore[name-defined,misc]
            def find_class(self, module: str, name: str) -> Any:
                found = loader.find_class(module, name)
                return super().find_class(module, name) if found is None else found

            def persistent_load(self, pid: Any) -> Any:
                return loader.persistent_load(pid)

        return _Unpickler(data_file, **self.load_args)

    def find_class(self, module: str, name: str) -> Any:
        """The object for a global, or None for one the unpickler itself resolves (weights_only=False)."""
        # Protocol-2 pickles use Python 2 names (__builtin__.set): map them as pickle's own find_class does.
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        key = f"{module}.{name}"
        if self.weights_only:
            if key in _ALLOWED:
                return _ALLOWED[key]
            raise pickle.UnpicklingError(_WEIGHTS_ONLY_HELP.format(
                msg=f"Unsupported global: GLOBAL {key} was not an allowed global by default."))
        return _full_find(module, name)

    def persistent_load(self, pid: Any) -> _LoadedStorage:
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise pickle.UnpicklingError(f"torch.load: unknown persistent id {pid!r}")
        storage_type, key, location, numel = pid[1], str(pid[2]), pid[3], int(pid[4])
        if isinstance(location, bytes):  # 1.12's _maybe_decode_ascii: Python 2 files
            location = location.decode("ascii")
        if not isinstance(storage_type, _StorageType):
            if isinstance(storage_type, D.dtype):  # torch 2.x may write the dtype instead of a storage type
                storage_type = _StorageType(storage_type)
            else:
                raise pickle.UnpicklingError(f"torch.load: bad storage type {storage_type!r}")
        st = self.storages.get(key)
        if st is None:
            arr = self.storage_reader(key, storage_type.dtype, numel)
            if self.restore is not None:
                arr = self.restore(arr, storage_type.dtype, str(location))
            st = self.storages[key] = _LoadedStorage(arr, storage_type.dtype)
        view_metadata = pid[5] if len(pid) > 5 else None
        if view_metadata is not None:  # legacy storage views: (view_key, offset, size) in elements
            view_key, off, vsize = view_metadata
            vst = self.storages.get(view_key)
            if vst is None:
                vst = self.storages[view_key] = _LoadedStorage(st.array[off:off + vsize], st.dtype)
            return vst
        return st


def _zip_record_offset(fp: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Absolute file offset of an uncompressed record's data (reads its local header)."""
    fp.seek(info.header_offset)
    header = fp.read(30)
    if header[:4] != b"PK\x03\x04":
        raise RuntimeError("torch.load: corrupt zip archive (bad local header)")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_len + extra_len


class _LoadOptions:
    """What torch.load was asked besides the file: how to unpickle and where storages go."""

    __slots__ = ("weights_only", "pickle_module", "load_args", "restore")

    def __init__(self, weights_only: bool, pickle_module: Any = None, load_args: Optional[Dict[str, Any]] = None,
                 map_location: Any = None) -> None:
        self.weights_only, self.pickle_module, self.load_args = weights_only, pickle_module, load_args
        self.restore = _restorer(map_location)

    def loader(self, storage_reader: Callable[[str, Any, int], np.ndarray], restore: bool = True) -> _Loader:
        return _Loader(self.weights_only, storage_reader, self.pickle_module, self.load_args,
                       self.restore if restore else None)


def _load_zip(fp: BinaryIO, opts: _LoadOptions, mmap_path: Optional[str]) -> Any:
    with zipfile.ZipFile(fp) as zf:
        names = zf.namelist()
        pkl = next((n for n in names if n.endswith("/data.pkl") and n.count("/") == 1), None)
        if pkl is None:
            pkl = next((n for n in names if n == "data.pkl"), None)
        if pkl is None:
            raise RuntimeError("torch.load: zip archive without data.pkl (a TorchScript archive?); "
                               "use torch.jit.load for TorchScript files")
        prefix = pkl[: -len("data.pkl")]
        byteorder = zf.read(prefix + "byteorder").decode() if prefix + "byteorder" in names else "little"
        infos = {i.filename: i for i in zf.infolist()}

        def read_storage(key: str, dtype: Any, numel: int) -> np.ndarray:
            info = infos[f"{prefix}data/{key}"]
            npd = _np_dtype(dtype)
            nbytes = numel * npd.itemsize
            if info.compress_type != zipfile.ZIP_STORED:
                arr = np.frombuffer(bytearray(zf.read(info.filename)), dtype=npd)
            else:
                start = _zip_record_offset(fp, info)
                if mmap_path is not None and nbytes:
                    arr = np.memmap(mmap_path, dtype=npd, mode="c", offset=start, shape=(numel,))
                else:
                    arr = np.empty(numel, dtype=npd)
                    fp.seek(start)
                    view = memoryview(arr).cast("B")
                    got = 0
                    while got < nbytes:  # read straight into the array: no intermediate copy
                        n = fp.readinto(view[got:got + _CHUNK])
                        if not n:
                            raise RuntimeError(f"torch.load: truncated storage {key}")
                        got += n
            if byteorder != sys.byteorder:
                arr = arr.byteswap()
            return arr

        loader = opts.loader(read_storage)
        with zf.open(pkl) as data_file:
            return loader.unpickler(io.BytesIO(data_file.read())).load()


def _load_legacy(f: BinaryIO, opts: _LoadOptions) -> Any:
    """torch < 1.6's stream format (also written by `torch.save(..., _use_new_zipfile_serialization=False)`)."""
    def small_load(ff: BinaryIO) -> Any:
        """One of the small pickles around the object: pickle_module.load reads them in 1.12 (restricted when
        weights_only)."""
        if opts.pickle_module is not None:
            return opts.pickle_module.load(ff, **{"encoding": "utf-8", **(opts.load_args or {})})
        return opts.loader(lambda *a: np.empty(0), restore=False).unpickler(ff).load()

    magic = small_load(f)
    if magic != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    proto = small_load(f)
    if proto != _LEGACY_PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {proto}")
    sys_info = small_load(f)
    little = sys_info.get("little_endian", True) if isinstance(sys_info, dict) else True
    main_start = f.tell()
    # Pass 1: skip the object pickle (storages are declared there but their bytes come after it).
    declared: Dict[str, tuple] = {}

    def declare(key: str, dtype: Any, numel: int) -> np.ndarray:
        declared[key] = (dtype, numel)
        return np.zeros(numel, dtype=_np_dtype(dtype))

    opts.loader(declare, restore=False).unpickler(f).load()
    keys = small_load(f)
    data: Dict[str, np.ndarray] = {}
    for key in keys:
        dtype, _ = declared[str(key)]
        npd = _np_dtype(dtype)
        (numel,) = struct.unpack("<q", f.read(8))
        arr = np.empty(numel, dtype=npd)
        nread = f.readinto(memoryview(arr).cast("B")) if numel else 0
        if nread != numel * npd.itemsize:
            raise RuntimeError(f"torch.load: truncated storage {key}")
        data[str(key)] = arr if little == (sys.byteorder == "little") else arr.byteswap()
    end = f.tell()
    # Pass 2: the real unpickle, now that every storage's bytes are known.
    f.seek(main_start)
    result = opts.loader(lambda key, dtype, numel: data[key]).unpickler(f).load()
    f.seek(end)
    return result


def load(f: FileLike, map_location: Any = None, pickle_module: Any = None, *, weights_only: Optional[bool] = None,
         mmap: Optional[bool] = None, **pickle_load_args: Any) -> Any:
    """torch.load: read a file written by torch.save (PyTorch's zip or legacy format, or ours).

    weights_only (default True): only tensors, containers, numbers, strings and torch's allowed types are
    reconstructed; anything else raises `pickle.UnpicklingError`. `weights_only=False` runs the full
    unpickler (only for trusted files). Passing another `pickle_module` (any module with pickle's `Unpickler`
    and `load`, e.g. dill) unpickles with it and implies weights_only=False, as in torch 2.x; its
    `pickle_load_args` go to its Unpickler (1.12). `map_location` as 1.12: a string or device names where every
    storage goes, a dict maps saved locations, a callable is called as `map_location(storage, location)` once
    per storage and what it returns (unless None) is used. An unknown location raises 1.12's RuntimeError;
    CUDA locations are accepted and load onto the device MindSpore runs on (one process runs on one MindSpore
    device). `mmap=True` maps storages copy-on-write from the file (path inputs only).
    """
    custom = pickle_module is not None and pickle_module is not pickle
    if weights_only is None:
        weights_only = not custom  # torch 2.x: an explicit pickle module means the full unpickler
    if weights_only and custom:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if map_location is not None and not isinstance(map_location, (str, dict, _device_cls)) and not callable(
            map_location):
        raise ValueError(f"torch.load: unsupported map_location {map_location!r}")
    opts = _LoadOptions(bool(weights_only), pickle_module if custom else None, pickle_load_args, map_location)
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        with open(path, "rb") as fh:
            return _load_file(fh, opts, path if mmap else None)
    if mmap:
        raise ValueError("torch.load(mmap=True) needs a file path")
    if not (hasattr(f, "read") and hasattr(f, "seek")):
        raise AttributeError(f"torch.load: expected a path or a readable, seekable file object, got {type(f)}")
    return _load_file(f, opts, None)


def _load_file(fh: BinaryIO, opts: _LoadOptions, mmap_path: Optional[str]) -> Any:
    start = fh.tell()
    is_zip = zipfile.is_zipfile(fh)
    fh.seek(start)
    if is_zip:
        if start:
            fh = io.BytesIO(fh.read())  # zipfile needs the archive to start at offset 0 for header offsets
        return _load_zip(fh, opts, mmap_path)
    if mmap_path is not None:
        raise RuntimeError("torch.load(mmap=True) is only supported for the zip format")
    return _load_legacy(fh, opts)
