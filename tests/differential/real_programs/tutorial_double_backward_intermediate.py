"""Double Backward with Custom Functions -- saving intermediate results: Sinh returns
exp(x) and exp(-x) as outputs so that its backward is recorded, and a wrapper keeps the
first output.

Source: https://pytorch.org/tutorials/intermediate/custom_function_double_backward_tutorial.html
        (pytorch/tutorials, intermediate_source/custom_function_double_backward_tutorial.rst)
Adapted: the checks' results are printed.
"""
import torch


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))
out = sinh(x)
print(out.grad_fn)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(torch.allclose(gg, torch.sinh(x)))
