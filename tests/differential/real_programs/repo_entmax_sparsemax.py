"""entmax's sparsemax: a custom Function written with classmethods, its threshold found
by sort, cumsum and gather; backward averages the gradient over the support (torch.where).

Source: https://github.com/deep-spin/entmax/blob/master/entmax/activations.py
        (deep-spin/entmax, entmax/activations.py: SparsemaxFunction,
        _sparsemax_threshold_and_support, _make_ix_like)
Adapted: the k (top-k) branch is left out (k=None: the full sort).
"""
import torch
from torch.autograd import Function


def _make_ix_like(X, dim):
    d = X.size(dim)
    rho = torch.arange(1, d + 1, device=X.device, dtype=X.dtype)
    view = [1] * X.dim()
    view[0] = -1
    return rho.view(view).transpose(0, dim)


def _sparsemax_threshold_and_support(X, dim=-1, k=None):
    topk, _ = torch.sort(X, dim=dim, descending=True)
    topk_cumsum = topk.cumsum(dim) - 1
    rhos = _make_ix_like(topk, dim)
    support = rhos * topk > topk_cumsum
    support_size = support.sum(dim=dim).unsqueeze(dim)
    tau = topk_cumsum.gather(dim, support_size - 1)
    tau /= support_size.to(X.dtype)
    return tau, support_size


class SparsemaxFunction(Function):
    @classmethod
    def forward(cls, ctx, X, dim=-1, k=None):
        ctx.dim = dim
        max_val, _ = X.max(dim=dim, keepdim=True)
        X = X - max_val  # same numerical stability trick as softmax
        tau, supp_size = _sparsemax_threshold_and_support(X, dim=dim, k=k)
        output = torch.clamp(X - tau, min=0)
        ctx.save_for_backward(supp_size, output)
        return output

    @classmethod
    def backward(cls, ctx, grad_output):
        supp_size, output = ctx.saved_tensors
        dim = ctx.dim
        grad_input = grad_output.clone()
        grad_input[output == 0] = 0
        v_hat = grad_input.sum(dim=dim) / supp_size.to(output.dtype).squeeze(dim)
        v_hat = v_hat.unsqueeze(dim)
        grad_input = torch.where(output != 0, grad_input - v_hat, grad_input)
        return grad_input, None, None


def sparsemax(X, dim=-1, k=None):
    return SparsemaxFunction.apply(X, dim, k)


X = torch.tensor([[1.0, 2.0, 0.1, -1.0], [0.3, 0.2, 0.1, 0.0]], requires_grad=True)
P = sparsemax(X)
print(P, P.sum(dim=-1))
(P * torch.tensor([1., 2., 3., 4.])).sum().backward()
print(X.grad)
Y = torch.randn(3, 5, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda y: sparsemax(y, 0), (Y,)))
