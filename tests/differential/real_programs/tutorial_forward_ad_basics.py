"""Forward-mode Automatic Differentiation -- dual tensors: make_dual, unpack_dual, a
function of a dual and a plain tensor, tangents gone after the level.

Source: https://pytorch.org/tutorials/intermediate/forward_ad_usage.html
        (pytorch/tutorials, intermediate_source/forward_ad_usage.py)
Adapted: the asserts print their conditions; 4x4 instead of 10x10.
"""
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.randn(4, 4)
tangent = torch.randn(4, 4)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)

    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is not tangent)

    plain_tensor = torch.randn(4, 4)
    dual_output = fn(dual_input, plain_tensor)

    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(torch.allclose(jvp, 2 * primal * tangent))

print(fwAD.unpack_dual(dual_output).tangent is None)
