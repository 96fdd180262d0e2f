"""PyTorch Forums, "Jacobian computation with a single call to grad": the Jacobian of
x = cat([2q, 4q²]) built row by row with autograd.grad (retain_graph, create_graph),
written into a preallocated matrix, against a single call with many outputs.

Source: https://discuss.pytorch.org/t/jacobian-computation-with-a-single-call-to-grad/83134
Adapted: restated; the single call passes the outputs and inputs as lists, as the
question does, and shows why its rows are all the same.
"""
import torch


def jacobian_rows(input, output):
    J = torch.zeros(output.size(-1), input.size(-1))
    for i in range(output.size(-1)):
        gradient = torch.autograd.grad(output[i:i + 1], input, torch.ones(1),
                                       retain_graph=True, create_graph=True,
                                       allow_unused=False)
        J[i, :] = gradient[0]
    return J


def jacobian_one_call(input, output):
    outs = [output[i:i + 1] for i in range(output.size(-1))]
    gradient = torch.autograd.grad(outs, [input] * len(outs),
                                   [torch.ones(1)] * len(outs),
                                   retain_graph=True, create_graph=True)
    return torch.stack(gradient, dim=-2)


q = torch.tensor([1.0, 2.0]).requires_grad_(True)
print(f"q: {q}")
x = torch.cat([2 * q, 4 * q * q], -1)
print(f"x: {x}")
J2 = jacobian_rows(q, x)
print(f"J2: {J2}")
J1 = jacobian_one_call(q, x)
print(f"J1: {J1}")
print(torch.autograd.functional.jacobian(lambda q: torch.cat([2 * q, 4 * q * q], -1), q))
