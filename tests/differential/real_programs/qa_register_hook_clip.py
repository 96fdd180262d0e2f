"""Looking at and changing gradients with tensor hooks (answers to "how do I see the
gradient of an intermediate variable"): a hook that prints, a hook that clamps, removed
by its handle, and the save_grad(name) closure that keeps them in a dict.

Source: https://www.shangmayuan.com/a/12c501fa878f421abb1df5bb.html (save_grad, from a
        PyTorch developer's forum answer)
        https://developpaper.com/an-example-of-gradient-calculation-for-variables-of-non-leaf-nodes-in-python/
Adapted: the clamping hook is added; plain tensors.
"""
import torch

w = torch.tensor([1., 2., 3.], requires_grad=True)
h = w.register_hook(lambda grad: grad.clamp(min=-1.0, max=1.0))
y = w * torch.tensor([0.5, 5., -7.])
y.register_hook(lambda grad: print("dL/dy", grad))
y.sum().backward()
print(w.grad)
h.remove()
w.grad = None
(w * torch.tensor([0.5, 5., -7.])).sum().backward()
print(w.grad)

grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook


x = torch.tensor([1., 2.], requires_grad=True)
z = x * x
z.register_hook(save_grad("z"))
(z * 3).sum().backward()
print(grads["z"], x.grad)
