"""torch.autograd.function.FunctionCtx.save_for_backward, its docstring's example: a
Function saving inputs, an intermediate and its output, with a non-tensor on ctx and a
once_differentiable backward.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.function.FunctionCtx.save_for_backward.html
        (pytorch/pytorch, torch/autograd/function.py)
Adapted: the gradients are computed and printed.
"""
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz


a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = Func.apply(a, b, c)
print(d, d.grad_fn.name())
d.backward()
print(a.grad, b.grad)
try:
    e = Func.apply(a, b, c)
    g, = torch.autograd.grad(e, a, create_graph=True)
    g.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
