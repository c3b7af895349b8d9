"""How each English term is rendered in Chinese, file by file (locales/zh_CN).

    python scripts/term_renderings.py              # every term below
    python scripts/term_renderings.py accuracy     # terms whose pattern matches

For each English term (a regular expression, matched on the English prose of
each message, math and code left out) it counts, per catalog, the messages
whose translation uses each candidate Chinese rendering; "—" counts messages
that use none of them (a verb, a paraphrase, or a rendering to add to the
list). Two renderings of one meaning in different files are drift: choose one
(the glossary's, else 周志华's, else the majority; locales/TRANSLATING.md),
fix the catalogs, and, when the other is wrong wherever it appears, add it to
locales/term_variants.txt so that scripts/check_translations.py keeps it out.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict

import check_translations as ct

# English pattern -> candidate renderings (longer forms before the shorter
# ones they contain: a message counts under the longest that it uses).
TERMS = {
    r"check yourself": ["自我检验", "动手核对", "自测", "自我检查", "核对"],
    r"try it": ["动手试试", "试一试", "试试看"],
    r"self-checks?": ["自测题", "自我检验题", "自测", "自我检验"],
    r"exercises?": ["习题", "练习"],
    r"solutions?": ["解答", "答案", "题解", "解"],
    r"labell?ings?": ["标记方式", "标记", "标注", "标签"],
    r"labels?": ["标记", "标签", "标注", "类别"],
    r"bootstrap samples?": ["自助采样", "自助样本"],
    r"splitters?": ["划分器", "分割器", "切分器"],
    r"estimators?": ["估计量", "估计器", "估计"],
    r"folds?": ["折", "份"],
    r"learners?": ["学习器", "学习者", "学习算法"],
    r"test errors?": ["测试误差", "测试错误率"],
    r"training errors?": ["训练误差", "训练错误率"],
    r"generalization errors?": ["泛化误差", "泛化错误率"],
    r"hypothes[ie]s": ["假设"],
    r"data ?sets?": ["数据集"],
    r"features?": ["特征", "属性"],
    r"accuracy": ["精度", "准确率", "正确率", "准确度"],
    r"error rates?": ["错误率", "误差率"],
    r"loss(es)?": ["损失"],
    r"risks?": ["风险"],
    r"regulari[sz]ation": ["正则化"],
    r"priors?": ["先验"],
    r"evidence": ["证据"],
    r"plug-in": ["代入", "插入式", "插件式"],
    r"monte carlo": ["蒙特卡罗", "蒙特卡洛"],
    r"standard errors?": ["标准误", "标准误差"],
    r"null": ["原假设", "零假设"],
    r"negatives?": ["反例", "负例"],
    r"examples?": ["样本", "样例", "例子", "示例"],
    r"logistic loss|log.loss": ["对数损失", "逻辑损失", "对率损失"],
    r"summary": ["小结", "总结", "摘要"],
    r"learning objectives?": ["学习目标"],
    r"further reading": ["延伸阅读", "扩展阅读", "进一步阅读"],
}


def renderings(pattern: str, candidates: list[str], messages) -> dict:
    """{file: Counter(rendering -> messages)} for one English pattern."""
    english = re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE)
    table = defaultdict(Counter)
    for name, prose, chinese in messages:
        if english.search(prose):
            used = [c for c in candidates if c in chinese]
            used = [c for c in used if not any(c != d and c in d for d in used)]
            table[name].update(used or ["—"])
    return table


def main(argv: list[str]) -> int:
    from babel.messages.pofile import read_po

    messages = []
    for path in ct.catalog_files():
        with open(path, "rb") as handle:
            for message in read_po(handle):
                if message.id and message.string:
                    messages.append((path.stem, ct.split_message(message.id).prose,
                                     ct.split_message(message.string).prose))
    for pattern, candidates in TERMS.items():
        if argv and not any(re.search(arg, pattern, re.IGNORECASE) for arg in argv):
            continue
        table = renderings(pattern, candidates, messages)
        total = sum(table.values(), Counter())
        print(f"{pattern}: " + ", ".join(f"{word} {n}" for word, n in total.most_common()))
        for name in sorted(table):
            print(f"    {name}: " + ", ".join(f"{w} {n}" for w, n in table[name].most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
