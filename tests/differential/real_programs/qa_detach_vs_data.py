"""Why x.detach() is safer than x.data (PyTorch 0.4's migration notes, and the answers
that quote them): an in-place change through detach() is caught when backward needs the
value, through .data it silently gives a wrong gradient.

Source: https://github.com/pytorch/pytorch/issues/6990
        (the example of the 0.4.0 release notes, "What about .data?")
Adapted: the refused backward is caught.
"""
import torch

a = torch.tensor([1, 2, 3.], requires_grad=True)
out = a.sigmoid()
c = out.detach()
print(c.zero_())
print(out)  # modified by c.zero_() !!
try:
    out.sum().backward()  # Requires the original value of out
except RuntimeError as error:
    print("RuntimeError:", error)

a = torch.tensor([1, 2, 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
print(c.zero_())
print(out)  # out was modified by c.zero_()
out.sum().backward()
print(a.grad)  # The result is very, very wrong because `out` changed!
