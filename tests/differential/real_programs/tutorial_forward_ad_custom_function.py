"""Forward-mode Automatic Differentiation -- a custom Function with a jvp (exp, keeping
its result on ctx), and gradcheck with check_forward_ad=True.

Source: https://pytorch.org/tutorials/intermediate/forward_ad_usage.html
        (pytorch/tutorials, intermediate_source/forward_ad_usage.py)
Adapted: 4x4 instead of 10x10; the results are printed.
"""
import torch
import torch.autograd.forward_ad as fwAD


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn = Fn.apply

primal = torch.randn(4, 4, dtype=torch.double, requires_grad=True)
tangent = torch.randn(4, 4)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent

print(jvp)
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))
