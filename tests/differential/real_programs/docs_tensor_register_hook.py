"""torch.Tensor.register_hook and register_post_accumulate_grad_hook, their docstrings'
examples: a hook that doubles the gradient; an SGD step run as each gradient arrives.

Source: https://pytorch.org/docs/2.13/generated/torch.Tensor.register_hook.html
        https://pytorch.org/docs/2.13/generated/torch.Tensor.register_post_accumulate_grad_hook.html
        (pytorch/pytorch, torch/_tensor.py)
Adapted: the handles' remove() and a second backward are added.
"""
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()  # removes the hook
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)
h.remove()  # removes the hook
try:
    (v * 2).register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as error:
    print("RuntimeError:", error)
