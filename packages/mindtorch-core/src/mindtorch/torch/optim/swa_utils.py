"""torch.optim.swa_utils: Stochastic Weight Averaging (torch 1.12): AveragedModel, SWALR, update_bn.

- `AveragedModel(model)` keeps a deep copy of `model` whose parameters (and buffers with `use_buffers=True`) are the
  running average of the model's, updated by `update_parameters(model)`; the count is the buffer `n_averaged`.
- `SWALR` anneals each group's learning rate to `swa_lr` (cosine or linear) over `anneal_epochs`, then holds it.
- `update_bn(loader, model)` resets BatchNorm running statistics and re-estimates them with one pass over the
  data, as a cumulative average (momentum None).

Averages are written in place into the copy's tensors (outside autograd), so an optimizer or a reference to a
parameter of the averaged model keeps seeing the current average, as in torch.
"""
from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy
from typing import Any, Callable, Iterable, List, Optional

from .. import _dtype as D
from .._grad_mode import no_grad
from .._ops import _registry
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from .lr_scheduler import _LRScheduler
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR"]

_F = _registry.FUNCTIONS  # torch's functions by name (tensor, zeros_like, ...), filled by the op table


def _write(dst: Any, value: Any) -> None:
    """torch's `dst.detach().copy_(value)`: in place, converting to dst's dtype as copy_ does (a float average
    written into an integer buffer is truncated, as in torch 1.12)."""
    if value.dtype != dst.dtype:
        value = value.to(dtype=dst.dtype)
    _registry.write_back(dst, value)


class AveragedModel(Module):
    r"""Averaged copy of `model` for Stochastic Weight Averaging (SWA).

    Args:
        model: the model to average; it is deep-copied (the copy is ``self.module``).
        device: if given, the copy is moved there (recorded only: one MindSpore device per process).
        avg_fn: ``avg_fn(averaged_param, model_param, num_averaged) -> new averaged value``; default: the equal
            running average ``averaged + (model - averaged) / (num_averaged + 1)``.
        use_buffers: also average the buffers (e.g. BatchNorm running statistics) instead of only the
            parameters. Default: ``False``.
    """

    def __init__(self, model: Module, device: Any = None,
                 avg_fn: Optional[Callable[[Any, Any, Any], Any]] = None, use_buffers: bool = False) -> None:
        super().__init__()
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", _F["tensor"](0, dtype=D.int64, device=device))
        if avg_fn is None:
            def avg_fn(averaged_model_parameter: Any, model_parameter: Any, num_averaged: Any) -> Any:
                return averaged_model_parameter + (model_parameter - averaged_model_parameter) / (num_averaged + 1)
        self.avg_fn = avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold `model`'s current parameters (and buffers with `use_buffers`) into the average: the first call
        copies them, later calls apply `avg_fn`; then `n_averaged += 1`."""
        self_param = (itertools.chain(self.module.parameters(), self.module.buffers())
                      if self.use_buffers else self.parameters())
        model_param = (itertools.chain(model.parameters(), model.buffers())
                       if self.use_buffers else model.parameters())
        n_averaged = int(self.n_averaged)
        with no_grad():
            for p_swa, p_model in zip(self_param, model_param):
                p_model_ = p_model.detach()
                if n_averaged == 0:
                    _write(p_swa, p_model_)
                else:
                    _write(p_swa, self.avg_fn(p_swa.detach(), p_model_, self.n_averaged))
            _registry.write_back(self.n_averaged, self.n_averaged + 1)


def update_bn(loader: Iterable, model: Module, device: Any = None) -> None:
    r"""Recompute the BatchNorm running statistics of `model` with one pass over `loader`.

    The running means/variances are reset (0 / 1) and re-estimated as the cumulative average over the batches
    (momentum temporarily None); the momenta and the model's train/eval mode are restored afterwards. A batch
    that is a list or tuple contributes its first element. Models without BatchNorm are left unchanged.

    Args:
        loader: iterable of batches.
        model: the model whose BatchNorm statistics are updated.
        device: if given, each input is moved there (``input.to(device)``) before the forward.
    """
    with no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.running_mean = _F["zeros_like"](module.running_mean)
                module.running_var = _F["ones_like"](module.running_var)
                momenta[module] = module.momentum

        if not momenta:
            return

        was_training = model.training
        model.train()
        for module in momenta.keys():
            module.momentum = None
            _registry.write_back(module.num_batches_tracked, module.num_batches_tracked * 0)

        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)

        for bn_module in momenta.keys():
            bn_module.momentum = momenta[bn_module]
        model.train(was_training)


class SWALR(_LRScheduler):
    r"""Anneal each param group's learning rate to a fixed `swa_lr`, then keep it.

    Args:
        optimizer: the wrapped optimizer.
        swa_lr: the SWA learning rate (one value, or one per param group).
        anneal_epochs: number of epochs of the annealing phase. Default: ``10``.
        anneal_strategy: ``'cos'`` or ``'linear'``. Default: ``'cos'``.
        last_epoch: index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer: Optimizer, swa_lr: Any, anneal_epochs: int = 10, anneal_strategy: str = "cos",
                 last_epoch: int = -1) -> None:
        swa_lrs = self._format_param(optimizer, swa_lr)
        for swa_lr_, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = swa_lr_
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', "
                             f"instead got {anneal_strategy}")
        elif anneal_strategy == "cos":
            self.anneal_func = self._cosine_anneal
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_anneal
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _format_param(optimizer: Optimizer, swa_lrs: Any) -> List[Any]:
        if isinstance(swa_lrs, (list, tuple)):
            if len(swa_lrs) != len(optimizer.param_groups):
                raise ValueError("swa_lr must have the same length as "
                                 f"optimizer.param_groups: swa_lr has {len(swa_lrs)}, "
                                 f"optimizer.param_groups has {len(optimizer.param_groups)}")
            return list(swa_lrs)
        return [swa_lrs] * len(optimizer.param_groups)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        # The lr before annealing, recovered from the current one (the chainable form keeps no copy of it).
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> List[float]:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, "
                          "please use `get_last_lr()`.", UserWarning)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]
