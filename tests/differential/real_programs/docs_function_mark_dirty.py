"""torch.autograd.function.FunctionCtx.mark_dirty, its docstring's example: a Function
that changes its input in place through numpy and marks it dirty, so that backward
through the earlier a * a is refused.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.function.FunctionCtx.mark_dirty.html
        (pytorch/pytorch, torch/autograd/function.py)
Adapted: the expected error is caught and printed.
"""
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy()  # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output


a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
print(Inplace.apply(a))
print(a, a._version, a.grad_fn.name())
try:
    b.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
