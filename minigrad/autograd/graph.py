"""torch.autograd.graph: the names PyTorch keeps there.

    Node, AccumulateGrad          the nodes of the backward graph        node.py
    saved_tensors_hooks,          pack and unpack what ops save     saved_tensor.py
    disable_saved_tensors_hooks
    save_on_cpu                   saved tensors kept in host memory  save_on_cpu.py
    register_multi_grad_hook      one hook over several gradients  multi_grad_hook.py
"""
from .multi_grad_hook import register_multi_grad_hook
from .node import AccumulateGrad, Node
from .save_on_cpu import save_on_cpu
from .saved_tensor import disable_saved_tensors_hooks, saved_tensors_hooks

__all__ = ["Node", "AccumulateGrad", "saved_tensors_hooks", "disable_saved_tensors_hooks",
           "save_on_cpu", "register_multi_grad_hook"]
