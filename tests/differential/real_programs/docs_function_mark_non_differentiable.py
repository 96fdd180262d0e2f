"""torch.autograd.function.FunctionCtx.mark_non_differentiable, its docstring's example:
sort returning its indices marked non-differentiable, the gradient scattered back with
index_add_.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.function.FunctionCtx.mark_non_differentiable.html
        (pytorch/pytorch, torch/autograd/function.py)
Adapted: an input and a backward call are added.
"""
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Func(Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


x = torch.tensor([3., 1., 2.], requires_grad=True)
s, i = Func.apply(x)
print(s, i, s.requires_grad, i.requires_grad)
(s * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
