"""The grader's static passes: ``forbid`` rules, suspicious constructs, similarity flags.

The teacher audit of 2026-11-27 (issue #38, findings 4, 5 and 13) built notebooks of
chapter 1 that hide a forbidden call in ordinary code (r1-r10) or copy an answer with
small edits (p2, p3, p6). Each is rebuilt here from the chapter's student edition and
put through the grader's own plan and rule pass in process (``_plan.plan_notebook``,
``_rules.question_uses``, ``_flags.flags_for``): no notebook is run.
"""

import copy
import json
import re
from pathlib import Path

import pytest

from mlcore.homework import autograder_notebook, build_spec, student_edition
from mlcore.homework.grading._flags import (answer_hash, flags_for, mark_identical,
                                            suspicious)
from mlcore.homework.grading._plan import adopt_chapter_ids, names_used, plan_notebook
from mlcore.homework.grading._rules import forbidden_uses, question_uses

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = "01_logistic_regression"
SIGMOID, NEWTON = "ex01-stable-sigmoid", "ex01-newton"
EXPIT = "`scipy.special.expit`"
HESSIAN = "`mlcore.linear.logistic_hessian`"


@pytest.fixture(scope="module")
def chapter():
    nb = json.loads((ROOT / "chapters" / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))
    teacher = autograder_notebook(nb, CHAPTER)
    spec = build_spec(teacher, CHAPTER)
    student = student_edition(nb, CHAPTER)
    anchors = {q["name"]: q["anchors"][0] for q in spec["questions"] if not q["manual"]}
    return dict(teacher=teacher, student=student, spec=spec, anchors=anchors)


def _code(source, cell_id):
    return {"cell_type": "code", "id": cell_id, "metadata": {}, "execution_count": None,
            "outputs": [], "source": source}


def _edit(chapter, base="student", replace=(), above=(), end=(), delete=()):
    """A copy of an edition: answers replaced, new cells after the chapter's imports or at
    the end, solution cells deleted (questions named by label)."""
    nb = copy.deepcopy(chapter[base])
    ids = chapter["anchors"]
    for question, source in dict(replace).items():
        next(c for c in nb["cells"] if c.get("id") == ids[question])["source"] = source
    nb["cells"] = [c for c in nb["cells"] if c.get("id") not in {ids[q] for q in delete}]
    imports = next(i for i, c in enumerate(nb["cells"])
                   if "from scipy.special import expit" in "".join(c["source"]))
    for k, source in enumerate(above):
        nb["cells"].insert(imports + 1 + k, _code(source, f"above-{k}"))
    nb["cells"] += [_code(source, f"end-{k}") for k, source in enumerate(end)]
    return nb


def _rules(nb, spec):
    """Each coded question's rule findings, as ``grade_one`` computes them."""
    plan = plan_notebook(adopt_chapter_ids(nb, spec), spec)
    return {q["name"]: question_uses(plan, n, q) for n, q in enumerate(plan[4])}


SIGMOID_OWN = ("def stable_sigmoid(z):\n    z = np.asarray(z, dtype=float)\n"
               "    e = np.exp(-np.abs(z))\n    return np.where(z >= 0, 1 / (1 + e), e / (1 + e))")
NEWTON_BY = ("def newton_logistic(X, y, n_iter=10):\n"
             "    theta = np.zeros(np.shape(X)[1] + 1)\n"
             "    for _ in range(n_iter):\n"
             "        theta = theta - np.linalg.solve({h}(theta, X, y), {g}(theta, X, y))\n"
             "    return theta")

# The audit's table (REVIEW.md finding 4): construct -> (edits, question, expected rule).
AUDIT = {
    "r1_assign_alias_above": (dict(
        above=["import scipy.special as _ss\n_act = _ss.expit"],
        replace={SIGMOID: "def stable_sigmoid(z):\n    return _act(np.asarray(z, float))"}),
        SIGMOID, EXPIT),
    "r2_private_module": (dict(replace={SIGMOID: "from scipy.special import _ufuncs\n\n"
                                        "def stable_sigmoid(z):\n    return _ufuncs.expit(z)"}),
                          SIGMOID, EXPIT),
    "r3_alias_shadowed_later": (dict(
        above=["from scipy.special import expit as sig"],
        replace={SIGMOID: "def stable_sigmoid(z):\n    return sig(z)"},
        end=["from math import exp as sig"]), SIGMOID, EXPIT),
    "r4_lambda_above": (dict(
        above=["from scipy.special import expit as _e\nhelper = lambda z: _e(z)"],
        replace={SIGMOID: "def stable_sigmoid(z):\n    return helper(z)"}), SIGMOID, EXPIT),
    "r5_globals_lookup": (dict(replace={
        SIGMOID: "def stable_sigmoid(z):\n    return globals()['ex' + 'pit'](z)"}),
        SIGMOID, EXPIT),
    "r7_assign_alias_newton": (dict(
        above=["import mlcore.linear as L\nH, G = L.logistic_hessian, L.logistic_gradient"],
        replace={NEWTON: NEWTON_BY.format(h="H", g="G")}), NEWTON, HESSIAN),
    "r8_newton_at_top_stub_deleted": (dict(
        above=[NEWTON_BY.format(h="logistic_hessian", g="logistic_gradient")],
        delete=[NEWTON]), NEWTON, HESSIAN),
    "r9_class_method_above": (dict(
        above=["class _Steps:\n    @staticmethod\n    def step(theta, X, y):\n"
               "        return np.linalg.solve(logistic_hessian(theta, X, y),\n"
               "                               logistic_gradient(theta, X, y))"],
        replace={NEWTON: "def newton_logistic(X, y, n_iter=10):\n"
                         "    theta = np.zeros(np.shape(X)[1] + 1)\n"
                         "    for _ in range(n_iter):\n"
                         "        theta = theta - _Steps.step(theta, X, y)\n"
                         "    return theta"}), NEWTON, HESSIAN),
    "r9_instance_of_a_class_above": (dict(
        above=["class _Steps:\n    def step(self, theta, X, y):\n"
               "        return np.linalg.solve(logistic_hessian(theta, X, y),\n"
               "                               logistic_gradient(theta, X, y))\n\n\n"
               "_steps = _Steps()"],
        replace={NEWTON: "def newton_logistic(X, y, n_iter=10):\n"
                         "    theta = np.zeros(np.shape(X)[1] + 1)\n"
                         "    for _ in range(n_iter):\n"
                         "        theta = theta - _steps.step(theta, X, y)\n"
                         "    return theta"}), NEWTON, HESSIAN),
    "r10_direct_control": (dict(replace={SIGMOID: "from scipy.special import expit\n\n"
                                         "def stable_sigmoid(z):\n    return expit(z)"}),
                           SIGMOID, EXPIT),
}


@pytest.mark.parametrize("name", AUDIT)
def test_each_audit_construct_breaks_the_rule_of_its_question(chapter, name):
    edits, question, rule = AUDIT[name]
    found = _rules(_edit(chapter, **edits), chapter["spec"])
    assert any(hit.startswith(rule) for hit in found[question]), found
    other = NEWTON if question == SIGMOID else SIGMOID
    assert found[other] == [], found    # the untouched other question is not blamed


def test_r6_another_library_s_logistic_is_allowed_as_the_rule_is_written(chapter):
    nb = _edit(chapter, replace={SIGMOID: "import scipy.stats\n\ndef stable_sigmoid(z):\n"
                                          "    return scipy.stats.logistic.cdf(z)"})
    assert _rules(nb, chapter["spec"]) == {SIGMOID: [], NEWTON: []}


def _without_ids(nb, minor=4):
    """The notebook as nbformat 4.4 writes it, or after a copy that lost cell metadata."""
    nb = copy.deepcopy(nb)
    nb["nbformat_minor"] = minor
    for cell in nb["cells"]:
        cell.pop("id", None)
        cell["metadata"] = {}
    return nb


def test_the_chapter_s_own_cells_are_never_blamed(chapter):
    spec = chapter["spec"]
    clean = {SIGMOID: [], NEWTON: []}
    # the solution (its setup cell imports expit and mlcore; a chapter cell between the
    # Newton stub and its tests calls logistic_hessian), with and without cell ids (the
    # audit's heidi and ivan, finding 3), and the untouched edition
    assert _rules(chapter["teacher"], spec) == clean
    assert _rules(_without_ids(chapter["teacher"]), spec) == clean
    assert _rules(_without_ids(chapter["teacher"], minor=0), spec) == clean
    assert _rules(chapter["student"], spec) == clean
    # an answer in a new cell below the stub, reading the chapter's data
    nb = _edit(chapter, base="teacher")
    stub = next(i for i, c in enumerate(nb["cells"]) if c.get("id") == chapter["anchors"][
        SIGMOID])
    nb["cells"].insert(stub + 1, _code(SIGMOID_OWN + "\n\nscale = sigmoid(X[:, 0]).max()",
                                       "new"))
    assert _rules(nb, spec) == clean


def test_names_resolve_as_python_would_at_the_tests(chapter):
    spec = chapter["spec"]
    # the student's own `expit` shadows the chapter's import before the tests: allowed
    own = ("def expit(z):\n    return 1 / (1 + np.exp(-z))\n\n\n"
           "def stable_sigmoid(z):\n    return expit(z)")
    assert _rules(_edit(chapter, replace={SIGMOID: own}), spec)[SIGMOID] == []
    # a local variable named like the forbidden function is not the function
    local = ("def stable_sigmoid(z):\n    expit = np.exp(-np.abs(z))\n"
             "    return np.where(z >= 0, 1 / (1 + expit), expit / (1 + expit))")
    assert _rules(_edit(chapter, replace={SIGMOID: local}), spec)[SIGMOID] == []
    # ... but the chapter's import, when the student's shadow comes after the tests, is used
    late = _edit(chapter, replace={SIGMOID: "def stable_sigmoid(z):\n    return expit(z)"},
                 end=["def expit(z):\n    return 0"])
    assert _rules(late, spec)[SIGMOID] == [f"{EXPIT} (written `expit`)"]
    # a conditional rebinding does not hide the import it may leave in place
    maybe = _edit(chapter, above=["from scipy.special import expit as sig\n"
                                  "if False:\n    from math import exp as sig"],
                  replace={SIGMOID: "def stable_sigmoid(z):\n    return sig(z)"})
    assert _rules(maybe, spec)[SIGMOID] == [f"{EXPIT} (written `sig`)"]


@pytest.mark.parametrize("code, rule, expected", [
    # aliases of aliases, tuple unpacking, getattr with a constant, import_module
    (["import scipy.special as S", "T = S", "f = T.expit"], "scipy.special.expit", "f"),
    (["import mlcore.linear as L", "a, (b, c) = 1, (L.logistic_hessian, 2)"],
     "mlcore.linear.logistic_hessian", "b"),
    (["import scipy.special", "f = getattr(scipy.special, 'expit')"], "scipy.special.expit",
     "f"),
    (["import importlib", "m = importlib.import_module('scipy.special')"],
     "scipy.special.expit", "m.expit"),
    (["m = __import__('scipy.special', fromlist=['expit'])"], "scipy.special.expit", "m.expit"),
    # private modules, a rule on a whole package, a rule without a dot
    (["from mlcore.linear._functions import logistic_hessian as h"],
     "mlcore.linear.logistic_hessian", "h"),
    (["from mlcore.vc import shatters as s"], "shatters", "s"),
    (["import sklearn.linear_model as lm"], "sklearn", "lm.LogisticRegression"),
    # a function that returns a forbidden function, called above the answer
    (["from scipy.special import expit", "def make():\n    return expit", "g = make"],
     "scipy.special.expit", "g()"),
    # comprehensions, decorators and default arguments are code too
    (["from scipy.special import expit"], "scipy.special.expit",
     "[f for f in [expit]][0]"),
    (["from scipy.special import expit", "def k(z, f=expit):\n    return f(z)"],
     "scipy.special.expit", "k"),
])
def test_bindings_are_followed_however_they_are_written(code, rule, expected):
    answer = f"def answer(z):\n    return {expected}(z)"
    assert forbidden_uses(code, [answer], [rule]) != [], (code, expected)
    assert forbidden_uses(code, [answer], ["numpy"]) == []


def test_rules_match_module_prefixes_and_private_submodules():
    from mlcore.homework.grading._rules import _hits
    assert _hits("scipy.special._ufuncs.expit", "scipy.special.expit")
    assert _hits("scipy.special._ufuncs", "scipy.special")
    assert _hits("mlcore.linear._functions.logistic_hessian", "mlcore.linear")
    assert _hits("mlcore.vc._labelings.shatters", "shatters")
    assert not _hits("scipy.special.expm1", "scipy.special.expit")
    assert not _hits("scipy.specialist", "scipy.special")
    assert not _hits("mlcore.linear.sigmoid", "mlcore.linear.logistic_hessian")


def test_data_computed_outside_the_answer_is_not_code_it_uses():
    cells = ["import mlcore.linear as L", "X, y = L.sample_logistic_data([0, 1], 20)"]
    assert forbidden_uses(cells, ["def f():\n    return X.sum() + y.sum()"], ["mlcore"]) == []
    # a value the question's own cell computes is the answer's own work
    assert forbidden_uses(cells, ["w = L.sigmoid(X).sum()"], ["mlcore"]) == [
        "`mlcore` (written `L.sigmoid`)"]


def test_the_answer_is_followed_from_the_tests_even_outside_its_span():
    cells = ["from scipy.special import expit", "def f(z):\n    return expit(z)",
             "x = 1", "def f(z):\n    return z"]
    # the tests come after cell 2: the first f is the answer, though its cell is not the span
    assert forbidden_uses(cells, [], ["scipy.special.expit"], span=[2], until=2,
                          answers=["f"]) == [f"{EXPIT} (written `expit`)"]
    # after cell 3, f is the student's own code
    assert forbidden_uses(cells, [], ["scipy.special.expit"], span=[3], until=3,
                          answers=["f"]) == []


# ------------------------------------------------------------------ suspicious constructs


@pytest.mark.parametrize("code, flag", [
    ("f = globals()['ex' + 'pit']", "globals()"),
    ("f = vars()['expit']", "vars()"),
    ("m = __import__('scipy.special')", "__import__"),
    ("import importlib\nm = importlib.import_module('scipy.special')", "importlib"),
    ("from importlib import import_module", "importlib"),
    ("name = 'expit'\nf = getattr(m, name)", "getattr with a computed name"),
    ("exec('from scipy.special import expit')", "exec"),
    ("f = eval('expit')", "eval"),
    ("import builtins\nf = builtins.eval('expit')", "eval"),
])
def test_dynamic_lookups_and_code_from_text_are_suspicious(code, flag):
    assert flag in suspicious([code], set())


@pytest.mark.parametrize("code", [
    "f = getattr(np, 'exp')",
    "import importlib.util\nfound = importlib.util.find_spec('mlcore') is not None",
    "model.eval()\npattern = re.compile('x')\nvalues = {'vars': 1}",
])
def test_ordinary_code_is_not_suspicious(code):
    assert suspicious([code], set()) == []


def _flags(nb, spec):
    plan = plan_notebook(adopt_chapter_ids(nb, spec), spec)
    coded = plan[4]
    used = names_used([t["source"] for q in coded for t in q["tests"]])
    bound = {a for q in coded for a in (q.get("answers") or []) + (q.get("binds") or [])}
    return flags_for(nb, spec, plan, {q["name"]: q.get("solution_hash") for q in coded},
                     used - bound)


def test_the_untouched_edition_and_the_audit_s_r5_are_flagged_as_they_should(chapter):
    spec = chapter["spec"]
    flags, hashes = _flags(chapter["student"], spec)
    assert flags == [] and hashes == {SIGMOID: None, NEWTON: None}
    # the chapter's setup cell (importlib.util.find_spec) is not suspicious, even without ids
    flags, _ = _flags(_without_ids(chapter["student"]), spec)
    assert not any("importlib" in f for f in flags), flags
    nb = _edit(chapter, replace={SIGMOID: AUDIT["r5_globals_lookup"][0]["replace"][SIGMOID]})
    assert "suspicious: globals()" in _flags(nb, spec)[0]


# ------------------------------------------------------------------ similarity


def _solution(chapter, question):
    nb = chapter["teacher"]
    return "".join(next(c for c in nb["cells"] if c.get("id") == chapter["anchors"][
        question])["source"])


def test_the_published_solution_is_recognised_without_docstrings_or_with_new_names(chapter):
    spec = chapter["spec"]
    sigmoid, newton = _solution(chapter, SIGMOID), _solution(chapter, NEWTON)
    # p2: docstrings deleted; p3: locals renamed (e -> t, gradient -> g), comments changed
    p2 = {SIGMOID: "\n".join(line for line in sigmoid.splitlines() if '"""' not in line),
          NEWTON: "\n".join(line for line in newton.splitlines() if '"""' not in line)}
    p3 = {SIGMOID: re.sub(r"\be\b", "t", sigmoid).replace("# in (0, 1]", "# mine"),
          NEWTON: re.sub(r"\bgradient\b", "g", newton).replace("theta", "w")}
    for edits in (p2, p3):
        assert all(edits[q] != (sigmoid, newton)[k] for k, q in enumerate((SIGMOID, NEWTON)))
        flags, _ = _flags(_edit(chapter, replace=edits), spec)
        assert f"published solution: {SIGMOID}" in flags, flags
        assert f"published solution: {NEWTON}" in flags, flags
    # a different answer is not the published one
    other = SIGMOID_OWN.replace("1 / (1 + e)", "np.exp(-np.logaddexp(0, -z))")
    flags, _ = _flags(_edit(chapter, replace={SIGMOID: other}), spec)
    assert not any(f.startswith("published") for f in flags), flags


NEWTON_OWN = ("def newton_logistic(X, y, n_iter=10):\n"
              "    A = np.hstack([np.ones((len(X), 1)), X])\n"
              "    w = np.zeros(A.shape[1])\n"
              "    for step in range(n_iter):\n"
              "        q = 1 / (1 + np.exp(-(A @ w)))\n"
              "        r = A.T @ (q - y)\n"
              "        S = A.T @ (A * (q * (1 - q))[:, None])\n"
              "        w = w - np.linalg.solve(S, r)\n"
              "    return w")


def _class(chapter, answers):
    """``mark_identical`` over notebooks ``{file: {question: answer}}``, as the grader does."""
    spec = chapter["spec"]
    stubs = {q["name"]: q.get("stub_hash") for q in spec["questions"]}
    entries = [(file, _flags(_edit(chapter, replace=edits), spec)[1], stubs)
               for file, edits in answers.items()]
    return mark_identical(entries, published={q["name"]: q.get("solution_hash")
                                              for q in spec["questions"]})


def test_copies_are_same_as_or_similar_to_each_other(chapter):
    renamed = re.sub(r"\bS\b", "H", re.sub(r"\bw\b", "theta", NEWTON_OWN))  # p6: renamed
    edited = NEWTON_OWN.replace("q = 1 /", "q = 1.0 /")      # one constant changed
    flags = _class(chapter, {"p4.ipynb": {NEWTON: NEWTON_OWN}, "p5.ipynb": {NEWTON: NEWTON_OWN},
                             "p6.ipynb": {NEWTON: renamed}, "p7.ipynb": {NEWTON: edited},
                             "other.ipynb": {NEWTON: NEWTON_BY.format(h="H", g="G")},
                             "untouched.ipynb": {}})
    assert flags["p6.ipynb"][0] == f"same as p4.ipynb, p5.ipynb: {NEWTON}"
    assert flags["p4.ipynb"][0] == f"same as p5.ipynb, p6.ipynb: {NEWTON}"
    assert flags["p7.ipynb"] == [f"similar to p4.ipynb (0.94), p5.ipynb (0.94), p6.ipynb "
                                 f"(0.94): {NEWTON}"]
    assert flags["p4.ipynb"][1] == f"similar to p7.ipynb (0.94): {NEWTON}"
    assert "other.ipynb" not in flags and "untouched.ipynb" not in flags


def test_comparing_a_class_again_replaces_its_copy_flags(chapter):
    """``grade --update`` compares the rows kept from before again: no flag twice."""
    from mlcore.homework.grading import Submission, add_same_as
    spec = chapter["spec"]
    edited = NEWTON_OWN.replace("q = 1 /", "q = 1.0 /")
    rows = [Submission(file, {}, "ok", flags=["suspicious: ctypes"],
                       hashes=_flags(_edit(chapter, replace={NEWTON: answer}), spec)[1])
            for file, answer in (("p4.ipynb", NEWTON_OWN), ("p5.ipynb", NEWTON_OWN),
                                 ("p7.ipynb", edited))]
    add_same_as(spec, rows)
    first = [list(row.flags) for row in rows]
    assert first[0] == ["suspicious: ctypes", f"same as p5.ipynb: {NEWTON}",
                        f"similar to p7.ipynb (0.94): {NEWTON}"]
    add_same_as(spec, rows)
    assert [row.flags for row in rows] == first


def test_copies_of_the_published_solution_are_not_same_as_each_other(chapter):
    newton = _solution(chapter, NEWTON)
    flags = _class(chapter, {"a.ipynb": {NEWTON: newton}, "b.ipynb": {NEWTON: newton},
                             "c.ipynb": {NEWTON: newton.replace("theta", "w")}})
    assert flags == {}     # each has "published solution: ex01-newton" instead


def test_short_answers_everybody_writes_alike_are_not_flagged(chapter):
    from mlcore.homework.grading._flags import MIN_TOKENS, _parts
    textbook = ("def stable_sigmoid(z):\n    z = np.asarray(z, dtype=float)\n"
                "    return 1 / (1 + np.exp(-z))")
    clipped = textbook.replace("-z", "-np.clip(z, -500, 500)")
    flags = _class(chapter, {f"s{k}.ipynb": {SIGMOID: (textbook, clipped)[k % 2]}
                             for k in range(6)})
    assert flags == {}
    # the size that counts is the answer's beyond its stub: below MIN_TOKENS here
    stub = _parts(next(q["stub_hash"] for q in chapter["spec"]["questions"]
                       if q["name"] == SIGMOID))[1]
    assert 0 < _parts(answer_hash([clipped]))[1] - stub < MIN_TOKENS
    # ... while the published stable sigmoid (the same 2 lines for all who copy it) is above
    assert _parts(answer_hash([_solution(chapter, SIGMOID)]))[1] - stub >= MIN_TOKENS


@pytest.mark.parametrize("path", sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")),
                         ids=lambda p: p.stem)
def test_every_chapter_s_solution_obeys_its_rules_through_the_grader_s_plan(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    teacher = autograder_notebook(nb, path.stem)
    spec = build_spec(teacher, path.stem)
    student = student_edition(nb, path.stem)
    for edition in (teacher, _without_ids(teacher), student):
        found = _rules(edition, spec)
        assert not any(found.values()), found


def test_code_nested_too_deeply_to_read_costs_no_crash(chapter):
    # 1500 terms parse but do not compile (nor run in Jupyter); 900 do both
    for terms, expected in ((900, [f"{EXPIT} (written `expit`)"]), (1500, None)):
        deep = "def stable_sigmoid(z):\n    return expit(" + " + ".join(["z"] * terms) + ")"
        nb = _edit(chapter, replace={SIGMOID: deep})
        found = _rules(nb, chapter["spec"])[SIGMOID]
        assert found == expected if expected else isinstance(found, list)
        assert isinstance(_flags(nb, chapter["spec"])[0], list)
    chain = ["from scipy.special import expit as a0"] + [f"a{k + 1} = a{k}" for k in range(3000)]
    assert isinstance(forbidden_uses(["\n".join(chain)], ["def f(z):\n    return a3000(z)"],
                                     ["scipy.special.expit"]), list)


# --------------------------- the static passes run in the threads of grade --jobs N


def test_the_grader_parses_code_only_through_its_one_at_a_time_parse():
    """On CPython 3.11 two threads' ``ast.parse`` at once can raise ``SystemError``
    (python/cpython#106905; it stopped a class's grading in the test command once):
    every parse of the grading threads goes through ``_parse.parse``, which holds a lock."""
    grading = ROOT / "mlcore" / "homework" / "grading"
    bare = [f"{path.name}:{n}" for path in sorted(grading.glob("*.py")) if path.name != "_parse.py"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"\bast\.parse\(|(?<![.\w])compile\(", line)]
    assert bare == []


def test_a_parse_waits_while_another_thread_holds_the_parse_lock():
    import ast
    import threading

    from mlcore.homework.grading import _parse
    trees = []
    with _parse._ONE_AT_A_TIME:
        thread = threading.Thread(target=lambda: trees.append(_parse.parse("x = (1, [2])")))
        thread.start()
        thread.join(0.2)      # not a limit: it cannot finish while the lock is held here
        assert thread.is_alive() and trees == []
    thread.join()
    assert isinstance(trees[0], ast.Module)
    assert _parse.parse_or_none("def f(:") is None
    assert _parse.parse_or_none("(" * 10_000) is None        # too deep: None, not a crash
