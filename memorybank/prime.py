"""Prime (issue 14.3): the bank speaks first — pointers for a prompt, and a bank overview for a session.

`prime(bank, prompt)` routes the prompt and keeps at most `MAX_DOCUMENTS` documents that clear a
confidence bar; `text` is what a harness injects before the agent starts (format below, shared with
`--adoption`, which parses it). Nothing clears the bar → `{"documents": [], "text": ""}`: small talk
and generic coding requests must cost the agent nothing.

The bar, per document, is evidence from the prompt's *topical* words, not a tuned score:
- the prompt's content concepts (stopwords dropped, one per idea across languages) are weighted by
  their idf in this bank.
- words of the request rather than its subject are left out (`GENERIC`: bump, fix, typo, run, test,
  thanks, спасибо, 再来…, line numbers and counts, lone CJK characters); what remains are the *topical* words.
- a prompt that points at code in the conversation ("sort these imports", "перепиши этот цикл",
  "把这个变量改个名字": `points_at_code`) asks about that code: the words of code itself (`CODE`) are
  then request words too; they say nothing about which page of *this* bank to read.
- a prompt naming a technology or computing concept of general programming (`TECH`: SQL, Kubernetes,
  Java, a Merkle tree, quicksort, 闭包, итератор) that no page of the bank mentions is about that
  technology, not the bank: the bank's words beside it ("left *join* in SQL", "*логи* пода в Kubernetes")
  are that technology's vocabulary, which a software bank uses in passing. Nothing is injected. A
  technology the bank does name (Rust in a Rust project) is an ordinary topical word, and a prompt
  asking what the project supports or runs on (`SCOPE`: "does it run on Linux?") is about its scope.
  The list holds no word a project's own design might say in ordinary prose (thread, queue, hash,
  array, algorithm, recursion, lock words — deadlock, mutex, semaphore —, cookie, or closure, which is
  also an account's or a store's): only names of technologies and of textbook concepts.
- a question about how the project does its work names the workflow with request words ("how should
  *commit* messages look?", "which *checks* run on every *push*?", "what comes in *version* 0.2?"): in a
  question these `WORKFLOW` words are topical, and they anchor only a page about them (named in its
  title, purpose, keys or headings), never one that says "test" in passing. A question about how the
  session's work just went ("did the tests pass?", "which test failed?", "сборка упала?": `reports`)
  is about this run, not the project: it reads as a request.
- a question asking how two things differ (`compares`: "deep vs shallow copy", "Чем куча отличается
  от стека?", "HTTP 和 HTTPS 有什么区别？") asks about them as concepts, general knowledge unless the bank
  has them both: a page it points at must hold every compared word (the frame — differ, between,
  отличается, 区别 — aside), and a compared word no page holds means nothing is injected. A comparison
  of the bank's own things ("how does the Tezos handler differ from the EVM one?") still points: where
  every compared word is named in some page's title, purpose or keys, the ordinary bar applies.
- a prompt naming literals (`literal.question_literals`: an identifier, a path, a flag, an error string,
  a version) none of which any document holds, whole or as its file name, is about that code, that
  tool or that error ("rename MAX_RETRIES", "what does git log --oneline print?", "KeyError: 'id'"),
  not about the bank: nothing is injected, whatever its ordinary words match. Only a prompt of at most
  `LITERAL_WORDS` words is read so: a longer one carries pasted code or logs, whose names are not asked.
- at least one in three topical words must occur somewhere in the bank (`KNOWN_SHARE`): a prompt
  mostly about things the bank never mentions is not about the bank. A word the document's own title,
  purpose, keys or headings name occurs in the bank, though no body says it ("Kubernetes" in an
  operator page's purpose). An everyday word no page holds
  (`already`, `almost`) is ordinary phrasing, not a missing topic: it is not counted.
- the document must hold, in its prose or its metadata (title, purpose, canonical keys, headings),
  at least a third of the idf weight of the known topical words (`MIN_COVERAGE`), one of them itself
  a topic: everyday and clock words alone are no topic ("what time is it?"). A word every document
  holds still counts ("which chains might be added later?" in a bank about chains is about the
  bank): the ranking, not the bar, says which document to read.
- the first three of route's answer (five results) that clear it are injected: the bar decides
  whether to speak, the ranking what to point at (a cut at half the best score dropped the answer
  ranked second or third about as often as it dropped noise).

Injection text:
    memorybank: likely relevant — read with bank_read(path, section):
    - <path> § <section> — <title> (<why>)        (` § <section>` omitted when none)

`overview(bank)` is the session-start text: what the bank holds by layer, the inbox count, and the
rules delivery withholds as stale (drifted or missing anchors), in ≤ 120 tokens.
"""

from __future__ import annotations

from collections import Counter

from .bank import Bank
from .errors import BankError
from .evidence import Evidence, named
from .lang import SearchConcept, estimate_tokens
from .lang.tokens import fold, has_cjk
from .literal import bank_holds, question_literals
from .plain import plain
from .query import MAX_QUESTION
from .search import SearchIndex

MAX_DOCUMENTS = 3
TOKENS_MAX = 200  # of the whole injection: fewer documents rather than a longer text
LITERAL_WORDS = 30  # a prompt longer than this is not read for literals the bank lacks (pasted code, logs)
MIN_COVERAGE = 1 / 3
KNOWN_SHARE = 3  # at least one in three of the prompt's topical words must occur somewhere in the bank
WHY_MAX = 70  # characters of a document's `why` in the injection
HEADER = "memorybank: likely relevant — read with bank_read(path, section):"
NOTHING: dict = {"documents": [], "text": ""}
# Words of the request rather than of its subject: what an agent is asked to *do* to code, and chat.
# They are everyday in every project, so they say nothing about which document to read.
GENERIC = frozenset("""
add added bump change changes check clean cleanup clearer code comment comments commit continue debug delete
docstring does error errors file files fix format function functions go help here implement it line lines look
make mean means method more number ok okay one please print push refactor remove rename run same shorter longer
test tests thanks thank try typo unit update variable variables version write yes again now this that
work works worked working
hi hello hey great good nice cool sure perfect awesome done lgtm got sorry wait stop next previous last above below
explain simplify improve optimize rewrite redo undo revert retry repeat something anything everything thing things
snippet indent indentation whitespace semicolon bracket brackets parentheses lint linter warning warnings typo typos
rerun rename renamed return returns argument arguments param params parameter parameters value values todo
pr diff patch paste pasted copy above output answer question again instead better shorter simpler cleaner faster
давай сделай сделать спасибо отлично хорошо ок еще ещё снова исправь поправь добавь запусти коммит функцию
файл код ошибка продолжай пожалуйста можешь напиши объясни перепиши почини удали переименуй тест тесты ошибку
строку строке переменную функция комментарий отформатируй повтори дальше понятно ладно привет да нет
再来 一次 好的 继续 谢谢 格式 格式化 代码 一下 这段 修复 添加 运行 提交 再来一次 请 帮我 解释 重写 删除 重命名 变量
函数 注释 测试 报错 错误 这个 那个 可以 修改 优化 文件 版本号 你好 没问题 不错 删掉
""".split())

# The vocabulary of code itself, in any project: what a program is made of (`CODE_NOUNS`: loop, variable,
# import, JSON, regex), what is done to it when editing and how it is judged (`CODE_EDITS`: reformat, merge,
# sort, rename; unused, readable, shorter). Written as classes from general programming knowledge, not
# from prompts. A prompt that *points at* code in the conversation (a `POINTERS` word just before a code
# noun: "this loop", "the unused variable") asks about that code: then all these words are part of the
# request, like `GENERIC`; otherwise they stay topical ("how do we store JSON?" is about the bank).
CODE_NOUNS = frozenset("""
code snippet block line lines statement statements expression expressions condition conditional if else elif
loop loops iteration iterator generator comprehension lambda closure callback recursion
function functions method methods class classes variable variables constant constants argument arguments
parameter parameters param params signature return value values name names identifier
list lists array arrays dict dicts dictionary tuple tuples string strings integer int float boolean bool null
object objects field fields property properties attribute attributes key keys item items element elements
type types typing hint hints annotation annotations import imports decorator operator syntax indentation
bracket brackets brace braces quote quotes whitespace semicolon comment comments docstring
json yaml xml csv html regex regexp exception exceptions traceback assertion script output
stack trace stacktrace error errors message messages log logs piece chunk part helper wrapper
код кода коде фрагмент строка строку строки выражение выражения условие условия цикл цикла циклы
функция функцию функции метод метода класс класса переменная переменную переменной константа аргумент
аргументы параметр параметры значение имя название список списка массив словарь кортеж тип
типы типа аннотация аннотации импорт импорты регулярка регулярку исключение отступ отступы
комментарий скобки json кусок кусочек часть сообщение ошибка ошибку ошибки лог
代码 函数 方法 类 变量 常量 参数 返回值 循环 条件 语句 表达式 正则 正则表达式 列表 数组 字典
字符串 类型 注解 导入 异常 缩进 注释 名字 名称 段 报错 日志 消息 信息
""".split())
CODE_EDITS = frozenset("""
reformat format formatting rewrite refactor rename extract inline merge split combine join sort reorder
dedupe deduplicate simplify shorten clean tidy convert turn replace swap move delete remove drop insert
wrap unwrap annotate explain flatten nest collapse expand indent unused redundant duplicate duplicated
readable unreadable shorter longer cleaner simpler faster slower nested recursive async asynchronous await
idiomatic verbose concise messy ugly dead hardcoded regular separate separately
перепиши переделай отрефактори упрости сократи отформатируй объедини отсортируй удали замени вынеси
преобразуй переименуй короче покороче понятнее читаемее неиспользуемая неиспользуемую неиспользуемый
лишний лишнюю лишние асинхронный асинхронной асинхронным регулярное строковый отдельную отдельный отдельно
вынеси
重构 重写 改写 简化 合并 拆分 排序 改成 改为 改名 转换 异步 未使用 多余 可读 更短 一行 单独 提取 抽取
""".split())
CODE = CODE_NOUNS | CODE_EDITS
# Words pointing at something already in the conversation ("this function", "эту переменную", "这个变量")
POINTERS = frozenset("""
this these that those the my its
этот эта это эти этого этой этому этим этих эту тот та те того той тех мой моя мое моё мои мою моего моей
""".split())
# Conjunctions holding a pointer word that point at nothing: besides (×2), after/before/in order to (`того как`)
NOT_POINTING = frozenset(("кроме того", "помимо того", "того как", "того чтобы"))
ZH_POINTERS = ("这", "那", "此", "该")
# Function words holding a pointer character that point at nothing: then, should, therefore, so, besides, each
# other, from then on, hence; at that moment, afterwards, before
ZH_NOT_POINTING = frozenset("那么 应该 本该 因此 如此 此外 彼此 从此 由此 此时 此后 此前".split())
POINT_REACH = 2  # words after a pointer where the code word may stand ("these two if statements")
ZH_REACH = 6  # characters, for a CJK run without spaces

# Counts spelled out, like digits: "these two if statements" says how many, not what about
NUMBERS = frozenset("""
two three four five six seven eight nine ten twenty hundred два две три четыре пять шесть семь восемь девять десять
""".split())

# The clock and the calendar: "what's the date today?", "сколько времени?" name no topic of a bank, so
# these words, like everyday ones, count as evidence only beside another word the bank holds (held()).
CLOCK = frozenset("""
time date day days week weeks weekday weekend month months year years hour hours minute minutes clock calendar
today tonight tomorrow yesterday now monday tuesday wednesday thursday friday saturday sunday
время времени дата дату число день дня недели неделя неделю месяц года год час часа часов минута минут
сегодня завтра вчера сейчас понедельник вторник среда среду четверг пятница пятницу суббота субботу воскресенье
时间 日期 今天 明天 昨天 现在 星期 礼拜 周末 几点 点钟 钟 月 年 天 号
""".split())

# The session's own work, in any software project: version control, running tests and builds, the editor's
# layout of text, the chat itself. "rebase this branch and sort out the conflicts", "сборка упала,
# перезапусти", "把所有测试再跑一遍" ask the agent to *do* something now; every software bank mentions builds,
# tests, branches or messages somewhere. In a request (`asks` is false) these words, and the words of
# code (`CODE`), count as evidence only beside another word the bank holds (`held`); in a question ("which
# test suites are there?", "what does CI run on every push?") they are its subject. Written as classes
# from what a coding session consists of, not from prompts.
SESSION = frozenset("""
git commit commits amend squash rebase rebased merge merged conflict conflicts branch branches checkout switch
stash cherry pick push pushed pull fetch upstream origin remote master trunk staged stage unstage revert reset lockfile
request
run rerun build builds rebuild compile recompile suite fail failed failing failure pass passed passing flaky skip
skipped green red verbose output log logs ci pipeline lint retry restart reload open close save create called named
send ship
tab tabs space spaces indent indentation wrap line lines length width column columns character characters
trailing whitespace newline blank
message messages ignore paste pasted meant mean wrong mistake sorry earlier previous forget sense need needs
ahead mind
install installed uninstall reinstall upgrade dependency dependencies package packages container containers
docker terminal shell command env venv virtualenv environment start stop kill exit quit vim editor ide
temp temporary tmp review reviewer approve edit edits rollback roll broke broken summarize summary recap
коммит ребейз ветка ветку ветки слияние слить конфликт конфликты сборка сборку тест тесты прогони перезапусти
переключись переключи переключиться табы табуляция пробелы пробел отступ строка строку перенеси сообщение
сообщения забудь извини установи зависимость зависимости контейнер докер терминал временные ревью откати
откатить откат правка правку правки сломалось сломал сломано
提交 变基 分支 合并 冲突 构建 编译 测试 跑 压缩 切换 制表符 空格 换行 缩进 消息 说明 信息 安装 依赖 容器
重启 终端 临时 审查 回退 回滚 坏 坏了 总结 保存
""".split())
# Pastimes: meals, breaks, weather, travel. Like everyday and clock words, never a topic on their own.
PASTIME = frozenset("""
lunch dinner breakfast coffee tea break snack meal eat grab bed sleep home tired
weather rain raining sunny snow wind cold hot warm morning afternoon evening night flight train trip travel
vacation holiday airport game games match football soccer sport sports won win machine computer
cat cats dog dogs pet pets kitten puppy
кот кошка кота собака собаку питомец
обед обедать пообедаю ужин завтрак кофе перерыв погода погоду дождь снег поезд самолёт самолет отпуск
матч игра выиграл компьютер
猫 狗 宠物 吃饭 午饭 晚饭 早饭 咖啡 休息 下雨 天气 出差 火车 飞机 度假 比赛 电脑 赢
""".split())
# Words that make a prompt a question about how things are, rather than a request to do something now
ASKING = frozenset("""
how why what which where when who whose whom
как почему зачем что чем какой какая какое какие каких каком какую где когда куда откуда кто сколько ли
""".split())
ASKING_FIRST = frozenset("does do did is are was were should shall must may".split())  # "do we squash…?"
# The agent addressed: "did you save it?", "your last edit", "ты сохранил?", "你改了什么" ask about the session
YOU = frozenset("""
you your yours yourself ты тебя тебе тобой твой твоя твоё твое твою твои вы вас вам ваш ваша вашу ваши
""".split())
ZH_YOU = ("你", "您")
ZH_ASKING = ("怎么", "怎样", "为什么", "为何", "什么", "哪", "如何", "吗", "谁", "多少", "是否")

# Named technologies and computing concepts of general programming knowledge: languages, runtimes and
# frameworks, databases, infrastructure tools, protocols, data structures and algorithms, language semantics.
# Written as classes from general knowledge, not from prompts. A bank names the ones its project uses; one it
# never mentions is the prompt's subject, and the bank's words around it ("left join in SQL", "логи пода в
# Kubernetes", "JavaScript 的原型链") are that technology's vocabulary, which the bank uses in passing (`foreign`).
TECH = frozenset("""
python java javascript typescript rust swift dart golang kotlin ruby php perl scala haskell elixir erlang
clojure lua fortran cobol julia matlab powershell zsh sql nosql cpp csharp objective-c wasm webassembly
nodejs node.js deno react reactjs vue vuejs angular svelte jquery redux django flask fastapi laravel
nextjs webpack vite numpy pandas pytorch tensorflow keras pillow opencv bash
docker dockerfile kubernetes k8s helm terraform ansible nginx cron crontab systemd vim emacs
mysql postgres postgresql sqlite redis mongodb elasticsearch cassandra dynamodb mariadb kafka rabbitmq graphql
tcp udp tls ssl https dns websocket websockets jwt oauth cors grpc ssh ftp smtp sax dom vdom
utf-16 ascii esm merkle
quicksort mergesort heapsort bubblesort big-o hashmap hashmaps hashtable trie bst tuple tuples
iterator iterators decorator decorators singleton singletons polymorphism generics
coroutine coroutines goroutine goroutines gil monad monads bytecode garbage
питон джава джаваскрипт докер кубернетес итератор итераторы итератора замыкание замыкания синглтон
полиморфизм кортеж кортежи кортежа пузырьком
泛型 闭包 迭代器 装饰器 单例 多态 原型链 链表 哈希表 二叉树 快速排序 冒泡 时间复杂度 动态规划 贪心 垃圾回收 协程
区块链 子查询 反向代理
""".split())

# Function words the stopword lists miss: "rebase onto main" is about no page that says "onto"
FUNCTION = frozenset("onto into upon via vs versus ll ve re".split())  # and contractions' tails: "i'll", "we've"


def _cut(prompt: str) -> str:
    """The first `MAX_QUESTION` characters of a prompt, cut at a space: a pasted log must not be refused."""
    text = " ".join(prompt.split())
    if len(text) <= MAX_QUESTION:
        return text
    head = text[:MAX_QUESTION]
    return head.rsplit(" ", 1)[0] if " " in head else head


def held(evidence: Evidence, index: SearchIndex, sid: int, chat: str = "", pointed: bool = False,
         asking: bool = True, compared: bool = False, own: bool = False) -> tuple[bool, float]:
    """Does one document clear the bar (module doc)? And the idf-weighted share of known concepts it holds.

    `chat` is the prompt with its CJK request phrases blanked (`_chatless`): a CJK concept found only
    inside one (`问题` of `没问题`, "no problem") is part of the request, not its subject. `pointed`: the
    prompt points at code in the conversation (`points_at_code`), so the words of code are request words.
    `asking`: the prompt is a question (`asks`); in a request, words of code and of the session's work
    (`SESSION`) do not anchor it; in a question `WORKFLOW` words are topical, anchoring a page named for
    them. `compared`: the prompt asks how two things differ (`compares`), so the document must hold every
    compared word, and one no page holds silences the prompt, unless the comparison is of the bank's `own`
    things (`_own_things`): then the ordinary bar applies, the comparison's frame words aside."""
    path = index.paths[sid]
    doc = index.bank.docs.get(path) if path is not None else None
    if doc is None:
        return False, 0.0
    assert index.lexicon is not None
    title, purpose = index.meta[sid]
    terms = set(title | purpose | index.keys[sid])
    if doc.sections:
        terms |= index.lexicon.search_terms(" ".join(s.title for s in doc.sections))
    topical = known = 0
    known_weight = found = 0.0
    anchored = False
    for concept, weight, values, df in zip(evidence.concepts, evidence.weights, evidence.per_concept, evidence.dfs):
        workflow = asking and _workflow(index, concept)
        if (_generic(index, concept) and not workflow) or (pointed and _code(index, concept)) \
                or (chat and has_cjk(concept.text) and concept.text not in chat):
            continue
        if workflow and not df or compared and _comparing(concept):
            continue
        # no body holds it and this page's metadata does not name it: a topic the bank lacks, unless ordinary
        if not df and not named(concept, terms):
            if compared and not own and not _everyday(index, concept):
                return False, 0.0
            topical += not _everyday(index, concept)
            continue
        topical += 1
        known += 1
        known_weight += weight
        # everyday, clock and pastime words alone are no topic ("what time is it?"), nor, in a request, words
        # of code and of the session's work ("rerun the build"): the bank must hold another word
        if workflow:
            anchored = anchored or named(concept, terms)
        else:
            anchored = anchored or not (_everyday(index, concept)
                                        or (not asking and (_code(index, concept) or _within(index, concept, SESSION))))
        if sid in values or named(concept, terms):
            found += weight
        elif compared and not own and not _everyday(index, concept):
            return False, 0.0
    if not known or known * KNOWN_SHARE < topical:
        return False, 0.0
    share = found / known_weight
    return anchored and share >= MIN_COVERAGE, share


# How the session's work just went: "did the tests pass?", "which test failed?", "сборка упала?", "测试挂了" ask
# about this run, not about how the project does things, so they read as requests (`reports`)
OUTCOME = frozenset("""
passed failed failing broke broken crashed succeeded прошли прошёл прошел прошла упал упала упали упало
сломалось сломался сломалась 通过了 失败了 挂了 报错了 过了
""".split())
OUTCOME_VERBS = frozenset("pass fail succeed break crash".split())


def reports(text: str) -> bool:
    """Does the prompt ask how the session's work just went: an outcome word (`OUTCOME`), or `did` with a
    verb of passing or failing ("why did the check fail?")?"""
    lowered = text.lower()
    words = [w.strip(_PUNCTUATION) for w in lowered.split()]
    if any(w in OUTCOME for w in words) or any(w in lowered for w in OUTCOME if has_cjk(w)):
        return True
    return "did" in words and any(w in OUTCOME_VERBS for w in words)


# The project's workflow as request words name it (all in `GENERIC`): in a question about how things are
# done ("how should commit messages look?", "which checks run on every push?", "what comes in version 0.2?")
# they are its subject, and they anchor a page that is about them (named in its title, purpose, keys or
# headings: git-workflow's "Commits"), never a page that says "test" in passing
WORKFLOW = frozenset("""
commit commits push test tests version check checks коммит коммиты тест тесты 提交 测试 版本号
""".split())


def _workflow(index: SearchIndex, concept: SearchConcept) -> bool:
    """A request word naming the project's workflow (`WORKFLOW`: commit, push, test, version, check), in any
    of its forms (testing, committed, versions), as `GENERIC` is matched.

    Why: the request words are matched by their stem, so "Testing: where do unit tests live?" merged `tests`
    into `Testing` (one concept per idea), which as typed is no `WORKFLOW` word: it was left out as a
    request word and the question, squarely about the testing page, was silenced."""
    assert index.lexicon is not None
    text = concept.text.lower()
    return text in WORKFLOW or index.lexicon.term(text)[0] in _code_terms(index.lexicon, WORKFLOW)


# Names that are everyday English words unless capitalised inside a sentence: "in Node", "my Express API",
# "Spring Boot", "written in Go" name technologies; "a tree node", "express it" do not
NAMED_TECH = frozenset("Node Express Go Spring Rails Unity Flask Rocket".split())
# Names that are also a season or a release's name ("the Spring release", "Spring 2026"): a technology only
# beside one of its parts ("Spring Boot", "Spring Security")
NAMED_WITH = {"Spring": frozenset("boot framework mvc security data cloud webflux batch".split())}


def foreign(text: str, evidence: Evidence, index: SearchIndex) -> bool:
    """Does the prompt name a technology or computing concept no document of the bank holds: a `TECH` word
    as typed, a `NAMED_TECH` name capitalised after the prompt's first word, or a CJK `TECH` word the
    segmenter may have cut (快速排序)?

    Neither a stem nor a translation counts: `generator` and `general` share a stem, `по очереди` ("in
    turn") translates to a queue, so the list names each word form it means."""
    words = [w.strip(_PUNCTUATION) for w in text.split()]
    inner = set(words[1:])
    for concept, df in zip(evidence.concepts, evidence.dfs):
        if not df and (concept.text.lower() in TECH or (concept.text in NAMED_TECH and concept.text in inner
                                                        and _named_here(concept.text, words))) \
                and not _bank_names(concept, index):
            return True
    if not has_cjk(text):
        return False
    whole = {concept.text for concept in evidence.concepts}  # a word kept whole was weighed above, translated
    assert index.lexicon is not None
    return any(word in text and word not in whole and not index.holds(word)
               and not _meta_holds(index, index.lexicon.search_terms(word))
               for word in _CJK_TECH)


def _named_here(name: str, words: list[str]) -> bool:
    """Is a `NAMED_TECH` name a technology where the prompt says it: always, unless `NAMED_WITH` says which
    words must follow it ("Spring Boot", not "the Spring release")?

    Why: "what will the Spring release bring besides bulk refunds?" was silenced in a bank with a roadmap
    page, the season read as the Java framework."""
    parts = NAMED_WITH.get(name)
    if parts is None:
        return True
    return any(word == name and after.lower() in parts for word, after in zip(words, words[1:]))


# Other spellings of one technology: a bank writing "PostgreSQL", "Kubernetes" or "Node.js" names what a prompt
# saying "postgres", "k8s" or "nodejs" asks about. Only spellings no everyday prose uses ("node" is a tree's,
# "go" a verb): a prompt naming a technology the bank lacks must still find it lacking.
ALIASES = (("postgres", "postgresql", "psql"), ("kubernetes", "k8s", "kubectl"), ("nodejs", "node.js"),
           ("react", "reactjs"), ("vue", "vuejs"), ("mongodb", "mongo"), ("wasm", "webassembly"),
           ("hashmap", "hashmaps", "hashtable"), ("websocket", "websockets"), ("sqlite", "sqlite3"))
_ALIAS_OF = {name: group for group in ALIASES for name in group}


def _bank_names(concept: SearchConcept, index: SearchIndex) -> bool:
    """Does the bank name this technology after all, where the body's document frequency does not look: in a
    document's title, purpose or keys (a page titled "Kubernetes rollout" whose body says "the cluster"),
    or under another of its spellings (`ALIASES`: postgres is PostgreSQL, sqlite is sqlite3)?

    Why: a technology the bank names is an ordinary topical word (module doc); reading only the body's
    counts silenced "how does the dashboard use React state?" in a bank whose frontend page's purpose says
    "a React 18 app", and "how big is the Postgres pool?" in one that writes PostgreSQL. Not any version
    glued on (python3): one `python3 script.py` line in a Dart project's bank would make every Python
    question about it."""
    assert index.lexicon is not None
    if _meta_holds(index, None, concept):
        return True
    typed = concept.text.lower()
    for spelling in _ALIAS_OF.get(typed, ()):
        terms = index.lexicon.search_terms(spelling)
        if terms and (_body_holds(index, terms) or _meta_holds(index, terms)):
            return True
    return False


def _body_holds(index: SearchIndex, terms: set[str]) -> bool:
    """Does one live document's body hold every one of `terms` ("node.js" is `nod` and `js`, said together)?"""
    together: set[int] | None = None
    for term in terms:
        entry = index.postings.get(term)
        ids = {ident for ident in entry[0] if index.paths[ident] is not None} if entry else set()
        together = ids if together is None else together & ids
        if not together:
            return False
    return bool(together)


def _meta_holds(index: SearchIndex, terms: set[str] | None, concept: SearchConcept | None = None) -> bool:
    """Does a live document's title, purpose or keys hold every one of `terms` (or, given, the concept)?"""
    for sid, path in enumerate(index.paths):
        if path is None:
            continue
        title, purpose = index.meta[sid]
        held_terms = set(title) | set(purpose) | set(index.keys[sid])
        if (concept is not None and named(concept, held_terms)) or (terms and terms <= held_terms):
            return True
    return False


# Words asking what the project supports or runs on: "does it run on Linux?", "поддерживается ли Kotlin?",
# "支持 Windows 吗？" name a technology the bank may never mention, and its scope pages answer them
SCOPE = ("support", "compatib", "run on", "runs on", "work with", "works with", "поддерж", "совмест", "支持", "兼容")


# A question asking how two things differ ("difference between a deep and a shallow copy", "process vs
# thread", "Чем процесс отличается от потока?", "HTTP 和 HTTPS 有什么区别？") asks about them as concepts
COMPARING = frozenset("differ differs difference differences vs vs. versus".split())
COMPARING_STEMS = ("отличает", "отличаю", "отличие", "отличия", "разниц", "区别", "差别", "差异")


def compares(text: str) -> bool:
    """Does the prompt ask how two things differ (`COMPARING`)?"""
    lowered = text.lower()
    return any(w.strip(_PUNCTUATION) in COMPARING for w in lowered.split()) \
        or any(stem in lowered for stem in COMPARING_STEMS)


def _comparing(concept: SearchConcept) -> bool:
    """A word of the comparison's frame itself (differ, отличается, 区别), not of what it compares."""
    text = concept.text.lower()
    return text in COMPARING or text in ("between", "между", "отличается") \
        or any(text.startswith(stem) for stem in COMPARING_STEMS)


def _own_things(evidence: Evidence, index: SearchIndex) -> bool:
    """Does the comparison compare the bank's own things: is every compared word (the frame, request and
    everyday words aside) named in the title, purpose or keys of some page? Then the ordinary bar applies.

    Why: a comparison must find one page holding every compared word, which a bank documenting each thing
    on its own page never has: "how does the Tezos handler differ from the EVM handler?" was silenced in a
    bank with a page titled for each. General knowledge ("deep vs shallow copy") names no bank page."""
    words = [concept for concept in evidence.concepts
             if not (_generic(index, concept) or _comparing(concept) or _everyday(index, concept))]
    return bool(words) and all(_meta_holds(index, None, concept) for concept in words)


def asks_scope(text: str) -> bool:
    """Does the prompt ask what the project supports or runs on (`SCOPE`)?"""
    lowered = text.lower()
    return any(word in lowered for word in SCOPE)


def _generic(index: SearchIndex, concept: SearchConcept) -> bool:
    """A word of the request itself (`bump`, `fix`, `спасибо`, `再来`), not of its subject."""
    text = concept.text.lower()
    if text in GENERIC or text in NUMBERS or text in FUNCTION or text.isdigit() or (len(text) == 1 and has_cjk(text)):
        return True  # a line number, a count, or one character of a CJK run: no subject on their own
    assert index.lexicon is not None
    generic = _generic_terms(index.lexicon)
    if index.lexicon.term(text)[0] in generic:
        return True
    # a word translating a generic one is generic too (`работает` is `works`): the list stays English
    return any(len(form.terms) == 1 and form.terms[0] in generic for form in concept.forms[1:])


def _everyday(index: SearchIndex, concept: SearchConcept) -> bool:
    """A word of everyday language in any of its forms, as evidence.py weighs it, or of the clock (`CLOCK`)."""
    assert index.lexicon is not None
    if any(index.lexicon.everyday(form.label) for form in concept.forms):
        return True
    return _within(index, concept, CLOCK) or _within(index, concept, PASTIME)


def _within(index: SearchIndex, concept: SearchConcept, words: frozenset[str]) -> bool:
    """Is the concept one of `words`: typed, by its term, or a one-word translation of one (`сборка` is `build`)?"""
    assert index.lexicon is not None
    terms = _code_terms(index.lexicon, words)
    text = concept.text.lower()
    return text in words or text in terms or any(len(f.terms) == 1 and f.terms[0] in terms for f in concept.forms)


def _code(index: SearchIndex, concept: SearchConcept) -> bool:
    """A word of code itself (`CODE`): typed, or a one-word translation of one (`цикл` is `loop`)."""
    assert index.lexicon is not None
    code = _code_terms(index.lexicon)
    text = concept.text.lower()
    if text in code or index.lexicon.term(text)[0] in code:
        return True
    return any(len(form.terms) == 1 and form.terms[0] in code for form in concept.forms[1:])


def points_at_code(text: str, lexicon) -> bool:
    """Does the prompt point at code in the conversation: a `POINTERS` word with a `CODE` word just after it
    ("this loop", "the unused variable", "эту функцию", "这个变量")?"""
    words = [w.strip(_PUNCTUATION) for w in text.lower().split()]
    if any(w in POINTERS for w in words):
        nouns = _code_terms(lexicon, CODE_NOUNS)
        for at, word in enumerate(words):
            if word in POINTERS and " ".join(words[max(at - 1, 0):at + 1]) not in NOT_POINTING \
                    and " ".join(words[at:at + 2]) not in NOT_POINTING \
                    and any(lexicon.term(w)[0] in nouns for w in words[at + 1:at + 1 + POINT_REACH] if w):
                return True
    if has_cjk(text):
        for at, char in enumerate(text):
            if char in ZH_POINTERS and text[max(at - 1, 0):at + 1] not in ZH_NOT_POINTING \
                    and text[at:at + 2] not in ZH_NOT_POINTING \
                    and any(w in text[at + 1:at + 1 + ZH_REACH] for w in _CJK_CODE):
                return True
    return False


def asks(text: str) -> bool:
    """Is the prompt a question about how things are ("how do we…", "which…", "do we squash…?", "如何…",
    "…吗") rather than a request to do something now ("rerun the build", "can you squash these") or a
    question to the agent about its own work ("did you save the file?", "what have you changed")?"""
    lowered = text.lower().replace("'", " ").replace("’", " ")
    if any(w.strip(_PUNCTUATION) in YOU for w in lowered.split()) or any(w in text for w in ZH_YOU):
        return False
    # a clause opening with a question word; "add a print so we see what happens" is a request
    for clause in lowered.translate(_CLAUSE_ENDS).split(","):
        words = clause.split()
        # Russian `ли` stands after the clause's first word ("повторяются ли исключения?"), never first
        if words and (words[0] in ASKING or words[0] in ASKING_FIRST or "ли" in words[1:3]):
            return True
    if any(_intoned(part) for part in lowered.split("?")[:-1]):
        return True
    return has_cjk(text) and any(w in text for w in ZH_ASKING)


# Russian asks yes/no by intonation alone ("кэш сбрасывается при выходе?"); a request with a question mark
# says whom it asks ("перезапустишь тесты?", "можно покороче?"): a second-person verb or an asking-for word
RU_ASKING_FOR = frozenset("можно давай давайте".split())


def _intoned(clause: str) -> bool:
    """Does `clause` (the text before a `?`, its last clause) read as a Russian yes/no question?"""
    words = [w.strip(_PUNCTUATION) for w in clause.translate(_CLAUSE_ENDS).split(",")[-1].split()]
    words = [w for w in words if w]
    return (bool(words) and all("а" <= ch <= "я" or ch in "ё-" for ch in "".join(words))
            and not any(w.endswith("шь") or w in RU_ASKING_FOR for w in words))


_CLAUSE_ENDS = str.maketrans(dict.fromkeys(";:.!?\n—–", ","))  # a dash opens a clause: "Testing — how…?"
_PUNCTUATION = ".,;:!?\"'()[]{}«»“”‘’…`"
_CJK_CODE = tuple(w for w in CODE_NOUNS if has_cjk(w))
_CJK_TECH = tuple(w for w in TECH if has_cjk(w))
_CODE_TERMS: dict[tuple[int, int], frozenset[str]] = {}


def _code_terms(lexicon, words: frozenset[str] = CODE) -> frozenset[str]:
    """`words` as `lexicon` writes them (English stems, Russian dictionary stems), built once per lexicon."""
    key = (id(lexicon), id(words))
    found = _CODE_TERMS.get(key)
    if found is None:
        found = _CODE_TERMS[key] = frozenset(lexicon.term(word)[0] for word in words)
    return found


_GENERIC_TERMS: dict[int, frozenset[str]] = {}
# CJK phrases of 2+ characters, longest first (one character, `请`, is also part of topical words: 请求)
_CJK_GENERIC = sorted((w for w in GENERIC if has_cjk(w) and len(w) >= 2), key=len, reverse=True)


def _chatless(text: str) -> str:
    """The prompt with its CJK request phrases (`再来一次`, `没问题`, `好的`) blanked, or "" without CJK.

    A CJK run has no spaces, so the segmenter can cut a chat phrase into a topical-looking word."""
    if not has_cjk(text):
        return ""
    for phrase in _CJK_GENERIC:
        if phrase in text:
            text = text.replace(phrase, " ")
    return text


def _generic_terms(lexicon) -> frozenset[str]:
    found = _GENERIC_TERMS.get(id(lexicon))
    if found is None:
        found = _GENERIC_TERMS[id(lexicon)] = frozenset(lexicon.term(word)[0] for word in GENERIC)
    return found


def prime(bank: Bank, prompt: str) -> dict:
    """At most 3 documents for a prompt that clear the confidence bar, and the text to inject."""
    from .timeroute import routed  # issue 19: time words leave the topic, windows rank (timeroute.py)

    if not isinstance(prompt, str):
        return dict(NOTHING)
    text = _cut(prompt)
    if not text:
        return dict(NOTHING)
    try:
        answer, evidence, index = routed(bank, text, limit=5)
    except BankError:
        return dict(NOTHING)
    results = answer["results"]
    if not results or evidence is None or index is None or not evidence.concepts:
        return dict(NOTHING)
    folded = fold(text)  # issue 14 (kanji-fold): the CJK word lists are Simplified; 再來一次 is 再来一次
    chat = _chatless(folded)
    if index.lexicon is None:  # a real check, not an `assert`: `python -O` drops those, and prime must stay silent
        return dict(NOTHING)
    pointed = points_at_code(folded, index.lexicon)
    asking = asks(folded) and not reports(folded)
    if not asks_scope(folded) and foreign(folded, evidence, index):
        return dict(NOTHING)
    # s8-literal: a flag, identifier or error string the bank never holds (a short prompt: a paste is not asked)
    literals = question_literals(text) if len(text.split()) <= LITERAL_WORDS else ()
    if literals and not bank_holds(index, bank.docs, literals):
        return dict(NOTHING)
    compared = compares(folded)
    own = compared and _own_things(evidence, index)
    documents = []
    for result in results:
        sid = index.ids.get(result["path"])
        if sid is None or plain(result["path"]) != result["path"]:
            continue  # a file name holding a newline or ESC would break the injection's lines: not pointed at
        if not held(evidence, index, sid, chat, pointed, asking, compared, own)[0]:
            continue
        item = {"path": result["path"], "title": result["title"], "section": result.get("section"),
                "why": _short(result["why"])}
        if estimate_tokens(injection([*documents, item])) > TOKENS_MAX:
            continue  # a very deep path: fewer pointers, the budget holds
        documents.append(item)
        if len(documents) == MAX_DOCUMENTS:
            break
    if not documents:
        return dict(NOTHING)
    return {"documents": documents, "text": injection(documents)}


def _short(why: str) -> str:
    return why if len(why) <= WHY_MAX else why[:WHY_MAX - 1].rstrip() + "…"


def injection(documents: list[dict]) -> str:
    """The injected text: the header line, then `- path § section — title (why)` per document."""
    lines = [HEADER]
    for item in documents:
        where = f"{item['path']} § {item['section']}" if item.get("section") else item["path"]
        why = f" ({item['why']})" if item.get("why") else ""
        lines.append(f"- {where} — {item['title']}{why}")
    return "\n".join(lines)


def overview(bank: Bank) -> str:
    """Session-start text (≤ 120 tokens): documents by layer, inbox notes, rules withheld as stale."""
    bank.refresh()
    layers: Counter[str] = Counter()
    inbox = 0
    for doc in bank.docs.values():
        if doc.in_inbox:
            inbox += doc.path.rpartition("/")[2] not in ("README.md", "DISCARDED.md")
        elif doc.is_knowledge:
            layers[doc.layer] += 1
    if not layers and not inbox:
        return ""
    held_by = ", ".join(f"{layer} {count}" for layer, count in sorted(layers.items(), key=lambda kv: (-kv[1], kv[0])))
    # a bank holding only inbox notes has no layer to list: "(0 documents: )" read as a broken line
    held = f"{sum(layers.values())} documents: {held_by}" if layers else "no documents yet"
    parts = [f"memorybank: this project has a bank ({held})."]
    if inbox:
        parts.append(f"{inbox} inbox note{'s await' if inbox != 1 else ' awaits'} review.")
    stale = _stale_rules(bank)
    if stale:
        parts.append(f"{stale} rule{'s' if stale != 1 else ''} withheld as stale (drifted or missing anchor).")
    parts.append("Ask bank_route(question) before reading code; read with bank_read(path, section).")
    return " ".join(parts)


def _stale_rules(bank: Bank) -> int:
    """Rules and recipes delivery withholds because their anchors drifted or vanished (0 if unknown)."""
    try:
        from .deliver.sources import select
        from .project import project_dir

        project = project_dir(bank.root)
        return len(select(bank, project, project).unfit)
    except Exception:  # an overview must never fail a session start
        return 0
