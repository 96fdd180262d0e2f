"""torch.autograd.function.FunctionCtx.save_for_forward, its docstring's example: a
Function with a jvp and a vjp (backward's other name), run on a dual tensor.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.function.FunctionCtx.save_for_forward.html
        (pytorch/pytorch, torch/autograd/function.py)
Adapted: the example's last lines are at the top level; the tangent and gradients are
printed.
"""
import torch
import torch.autograd.forward_ad as fwAD


class Func(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        ctx.z = z
        return x * y * z

    @staticmethod
    def jvp(ctx, x_t, y_t, _):
        x, y = ctx.saved_tensors
        z = ctx.z
        return z * (y * x_t + x * y_t)

    @staticmethod
    def vjp(ctx, grad_out):
        x, y = ctx.saved_tensors
        z = ctx.z
        return z * grad_out * y, z * grad_out * x, None


a = torch.tensor(1., requires_grad=True, dtype=torch.double)
t = torch.tensor(1., dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4

with fwAD.dual_level():
    a_dual = fwAD.make_dual(a, t)
    d = Func.apply(a_dual, b, c)
    print(fwAD.unpack_dual(d).tangent)

e = Func.apply(a, b, c)
e.backward()
print(a.grad, b.grad)
