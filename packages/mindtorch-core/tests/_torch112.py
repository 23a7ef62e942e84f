"""torch 1.12.1 reference behaviour where real torch 2.13 (the test reference) computes something else.

Each class is torch 1.12.1's single-tensor update transcribed onto real torch's `Optimizer`, so tests can compare
mindtorch (which follows 1.12) with what torch 1.12 computes:
- NAdam: 1.12 keeps `mu_product` in a float32 tensor and uses `mu_product * mu * mu_next` for the look-ahead
  product (fixed to `mu_product * mu_next` in torch 1.13).
- SGD(maximize=True): 1.12 negates only the final update (`param += lr * d_p`), after weight decay and momentum
  were computed from the gradient itself; torch 1.13+ negates the gradient first (different with weight decay,
  opposite momentum buffers).
State layouts are 1.12's (NAdam: `step`/`mu_product` float32 0-d tensors; SGD: `momentum_buffer`, None without
momentum), so state dicts can move between these and mindtorch.
"""
import torch


class NAdam112(torch.optim.Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 foreach=None):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, foreach=foreach))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                grad = param.grad
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = torch.tensor(0.)
                    state["mu_product"] = torch.tensor(1.)
                    state["exp_avg"] = torch.zeros_like(param)
                    state["exp_avg_sq"] = torch.zeros_like(param)
                exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
                state["step"] += 1
                step = state["step"].item()
                bias_correction2 = 1 - beta2 ** step
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                md = group["momentum_decay"]
                mu = beta1 * (1. - 0.5 * (0.96 ** (step * md)))
                mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * md)))
                mu_product *= mu
                mu_product_next = mu_product * mu * mu_next
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt().add_(group["eps"])
                lr = group["lr"]
                param.addcdiv_(grad, denom, value=-lr * (1. - mu) / (1. - mu_product.item()))
                param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next.item()))


class SGD112(torch.optim.Optimizer):
    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False,
                 foreach=None):
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is None:
                    continue
                d_p = param.grad
                state = self.state[param]
                if group["weight_decay"] != 0:
                    d_p = d_p.add(param, alpha=group["weight_decay"])
                buf = state.get("momentum_buffer")
                if group["momentum"] != 0:
                    if buf is None:
                        buf = torch.clone(d_p).detach()
                    else:
                        buf.mul_(group["momentum"]).add_(d_p, alpha=1 - group["dampening"])
                    d_p = d_p.add(buf, alpha=group["momentum"]) if group["nesterov"] else buf
                state["momentum_buffer"] = buf
                param.add_(d_p, alpha=group["lr"] if group["maximize"] else -group["lr"])


def reference_optimizer(name, params, kw):
    """The optimizer torch 1.12 would run: the 1.12 transcription where 2.13 differs, else real torch's."""
    if name == "NAdam":
        return NAdam112(params, **kw)
    if name == "SGD" and kw.get("maximize"):
        return SGD112(params, **kw)
    return getattr(torch.optim, name)(params, **kw)
