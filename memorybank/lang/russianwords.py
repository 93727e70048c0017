"""Russian words a developer uses when asking about a codebase, that the dictionary lacked or held too
narrowly (issue 14, ru-lexicon). Read with `dictionary.ROWS`.

Written from our own knowledge of how Russian developers talk — verbs of storing, loading, breaking,
fixing, waiting; nouns of data, infrastructure and code; common adjectives — and checked word by word
against `Lexicon.concepts`, never picked from a question set. A row that shares a stem with an
earlier row joins that row's concept (`Tables.add`): `store, keep | сохран` widens "save" to the
English words Russian says with the same verb. Stems follow the dictionary's rule: the shortest
prefix every inflected form shares, several stems where the forms part (`ждат, жду, ждет`).
"""

from __future__ import annotations

ROWS = """
store, keep | сохран | -
preserve, retain, keep | сохран | -
load, loading | загруж, загруз | -
export, unload, dump, upload | выгруж, выгруз | -
upload, push | залив, залит, залей, зальет, заливк | -
publish, deploy, release | выклад, выложи, выложен | -
rollout, deploy | раскат | -
crash, fail | краш, пада, упал, упад | -
break, broken, breaking | лома, слома, поломк | -
fix | исправ, чини, почин | -
call, invoke | вызов, вызыв | -
wait, await, expect | ждат, жду, ждет, ожида, ожидан, дожида, дожд | -
add, addition | добав | -
race | гонк, гонок | -
lock | блокир, замок, замк | -
forbid, deny, prohibit | запрет, запрещ | -
interval | интервал | -
column | колонк, колонок, столбец, столбц | -
constant | констант | -
workaround, hack, bypass | костыл, обходн, обход | -
cron | крон | -
cookie | куки, кук | -
cursor | курсор | -
catch, intercept | лови, ловл, перехват | -
node | нод | -
null, zero | нулев, нуль, ноль, нулл | -
object | объект | -
constraint, limit, restriction | ограничени, ограничив | -
debug | отладк, отлажив | -
cancel, cancellation, undo | отмен | -
patch | патч | -
primary | первичн | -
write | писат, пишет, пишу, пиши | -
count, calculate, compute, calculation | счит, подсчит, вычисл, расчет, рассчит | -
downgrade | понижен, понизи, даунгрейд | -
attempt, try | попытк, попыток | -
permission, privilege | права, правам, правами, правах | -
interrupt, abort | прерв, прерыв | -
production, prod | продакш, проде | -
pull | пулл | -
pool | пул | -
allow, permit | разреш | -
register, registration | реестр, регистрир | -
retry | повтор, ретра, перезапрос | -
route, routing | маршрут, роут | -
endpoint | ручк, ручек | -
property | свойств | -
attribute | атрибут | -
offset | смещени | -
staging | стейдж | -
string, line, row | строк, строч | -
stream | поток, стрим | -
timezone, zone | таймзон, пояс | -
slow, lag | тормоз | -
throttling, throttle | троттл, тротл | -
tag | тег, тэг | -
unique, uniqueness | уникальн | -
clean | очист, чист | -
upgrade | обновл, апгрейд | -
update | обновл, апдейт | -
database, base | баз | -
external, foreign | внешн | -
disable, shutdown | отключ, выключ | -
include, enable | включ | -
websocket | вебсокет | -
glitch, bug | баг, глюк, глюч | -
warning | предупрежд, варнинг | -
exception | исключени, эксепшн, эксепшен | -
stack trace, traceback | стектрейс, трейсбек | -
letter, email | письм | -
mailing, newsletter | рассылк, рассылок | -
preview | превью | -
refund, return | возврат | -
environment, staging | стенд | -
microservice | микросервис | -
shard, sharding | шард | -
replica, replication | реплик | -
garbage, trash | мусор | -
deadlock | дедлок, взаимоблокир | -
timer | таймер | -
signature | сигнатур | -
inheritance, inherit | наследов | -
constructor | конструктор | -
array | массив | -
tuple | кортеж | -
boolean | булев | -
pointer | указател | -
iterator | итератор | -
decorator | декоратор | -
enum, enumeration | перечислени, енум | -
script | скрипт | -
utility | утилит | -
shell | оболочк, шелл | -
linking, linker | линковк, линкер | -
bundle, bundler | бандл | -
reset | сброс, сбрас | -
invalidation, invalidate | инвалид | -
expire, expiry, expiration, stale | истек, истеч, протух | -
current, actual | актуальн | -
fresh, recent | свеж | -
latest, last | последн | -
previous | предыдущ | -
manual, manually | вручн, ручн | -
local | локальн | -
remote, deleted | удаленн | -
global | глобальн | -
internal | внутренн | -
third-party, external | сторонн | -
built-in, builtin | встроен | -
custom | кастомн | -
default | умолчани, дефолт | -
lazy | ленив | -
cold | холодн | -
hot | горяч | -
warm, warmup | тепл, прогрев | -
heavy | тяжел | -
vulnerability | уязвим | -
attack | атак | -
escape, escaping | экраниров | -
rebase | ребейз | -
pull request | пулреквест | -
request | реквест | -
branching | ветвлени | -
fork | форк | -
clone | клон | -
submodule | сабмодул | -
runner | раннер | -
artifact | артефакт | -
manifest | манифест | -
chart | чарт | -
span | спан | -
oncall, duty | дежурств, дежурн | -
postmortem | постмортем | -
fault tolerance, resilience | отказоустойчив | -
accessibility, availability | доступност | -
response, latency | отклик | -
throughput, bandwidth | пропускн | -
frequency, often | часто | -
concurrent, simultaneous | одновременн | -
sequential, sequence | последовательн | -
recursive, recursion | рекурс | -
incremental, increment | инкремент | -
full, complete | полност, полны, полна, полно | -
partial | частичн | -
permanent, persistent, constant | постоянн | -
core, kernel | ядр | -
engine | движок, движк | -
chunk | чанк | -
batch | батч, пачк, пачек | -
aggregation, aggregate | агрегац, агрегир | -
procedure | процедур | -
driver | драйвер | -
entity | сущност | -
header, heading | заголов, хедер | -
body | тело, тела, телу, телом | -
redirect | редирект, перенаправ | -
deprecate, deprecated | устаревш, депрекейт | -
signal | сигнал | -
mutex, semaphore | мьютекс, семафор | -
idempotency, idempotent | идемпотентн | -
deduplication, deduplicate | дедуплик | -
approve | одобр, аппрув | -
maintainer | мейнтейнер, сопровожда | -
stub | заглушк, заглушек | -
flaky, unstable | флаки, флейки, нестабильн | -
regression | регресс | -
snapshot | снапшот, снимок, снимк | -
reproduce, reproduction | воспроизв | -
panic | паник | -
plan, schedule | планир | -
"""

# Session 8 (dev-ru8): slang verbs built on a short anglicism stem (`за|пуш|ить`: a stem behind a verbal
# prefix needs 4 letters, so these are listed whole), anglicisms of tools and languages, everyday words
# of questions about a codebase, and words that had landed in the wrong concept (`замокать` was "lock"
# through `замок`, `удалось` "delete" through `удал`, `зависло` "dependency" through `завис`). Each was
# checked against `Lexicon.term` first; stems that would swallow common unrelated words (`прод` would
# take `продукт`, `раст` `растет`, `мак` `макет`, `личн` `различный`) are left out.
ROWS += """mock | мок, замока, замокир, мокир | -
push | пуш, запуш | -
pull | пулл, спул | -
log, logging | лог, залогир, логир | -
cache | кэш, закэшир, закешир, кэшир, кешир | -
debug | отладк, дебаж, задебаж, отдебаж | -
build | сборк, билд, сбилд, собрат, собер, собрал | -
tool, tooling | инструмент, тулз, тулинг | -
crate | крейт | -
library | библиотек, либ | -
server | сервер, сервак | -
task | задач, таск | -
issue | ишью | -
readme | ридми | -
documentation, docs | доки, доку, докам, доками | -
handler | хендлер, хэндлер | -
endpoint | эндпоинт, эндпойнт | -
state | состояни, стейт | -
props, properties | пропс | -
screenshot | скриншот, скрина, скрины, скрину, скрином, скрине, скринов, скринам, скринами, скринах | -
warning | предупрежд, варнинг, ворнинг | -
async, asynchronous | асинхрон, асинк | -
slow, lag | тормоз, лага, лагал | -
hang, freeze | зависа, зависл, висн, подвис | -
python | питон, пайтон | -
java | джав | -
javascript | джаваскрипт | -
typescript | тайпскрипт | -
swift | свифт | -
kotlin | котлин | -
golang, go | голанг | -
react | реакт | -
git | гит | -
macos, mac | макос, макбук, маки, маков, мака, маку | -
crypto, cryptography | крипт | -
call, invoke | вызов, вызва, дерга, дерн | -
send | отправ, шлет, шлют, слат | -
fail, failure | удалось, удался, удалась, удались, удаетс, удастс | -
target | целев, таргет | -
capture | захват | -
future | будущ | -
mouse | мыш | -
binary, executable | бинарн, бинарник, бинар | -
special | особ, специальн | -
approach | подход | -
control | контрол | -
real, actual | реальн, настоящ | -
flexible, flexibility | гибк | -
modern | современн | -
solution, solve | решени | -
distribution, distribute | распростран | -
complex, complexity | сложн | -
decode, decoding | декодир | -
detail, detailed | подробн, детал | -
isolation, isolate | изоляц, изолир | -
collector, collection | коллекционер | -
behavior, behaviour | поведен | -
normalization, normalize | нормализ | -
match, matching | совпаден, совпада, сопостав | -
reuse, reusable | переиспольз | -
coordinate | координат | -
quality | качеств | -
interpret, interpretation | интерпрет | -
cross-platform | кроссплатформ | -
entry | вход | -
resume, resumable | возобнов, докач | -
malicious | вредонос | -
artist | художник | -
marketplace | маркетплейс | -
mint, minting | минт | -
immediate, immediately | немедлен | -
trust | довер | -
existing | существующ | -
communication | коммуникац | -
grant | выда | -
shortcut | ярлык, шорткат | -
bridge | мост | -
visual | визуальн | -
weather | погод | -
forecast | прогноз | -
memory, ram | памят, оперативк, озу | -
consumption, consume | потребл, жрет, жрат, жрут, сжира | -
missing, absent, absence, lack | отсутств, недостающ, нехватк | -
meeting | встреч, заседан | -
migration, transition, switch | миграц, переход, перейт, перешл, перехож | -
review | ревью, пересматрив, пересмотр | -
sentence | предложени | -
ai | ии, нейросет | -
blocker, block, obstacle | блокер, меша, помех | -
support | поддержк, поддержив, поддержива, поддержат, поддержан | -
download | скач, качат, качает, качают, качал | -
configuration, setup | настро, настраив | -
stop | останов, останавлив | -
apply | примен | -
change | измен, менят, меняет, меняют, меняем, поменя | -
replace, substitute | замен, подмен | -
pass, transfer | переда, передав, передач | -
periodic, period | периодич, период | -
backoff | бэкофф, бекофф | -
wrong, incorrect | неверн, неправильн | -
correct, proper | корректн, правильн | -
master | мастер | -
description, describe | описани | -
fraction, proportion | доля, долю, доли, долей | -
understand | понима | -
restart, reload | перезапус, перезагру | -
accumulate | накоп | -
clarify, clarification | поясн | -
crash, fail | краш, отвал | -
track, tracking | наблюд, отслед, отслеж | -
load, loading | загруж, загруз, подгруз, догруз | -
unpack, decompress | распаков | -
bind, binding | привяз | -
assign, assignment | назнач | -
defer, postpone | отлож | -
run | прогон, прогн | -
response, answer, reply | ответ, отвеча | -
workaround, bypass | обход, обойт | -
wrap, wrapper | оберн, обертк, оберт | -
highlight | подсвет | -
run | прогон, запуст, запущ | -
skip | пропуст, пропуск, пропущ | -
allow, permit | разреш, допуст, допуск | -
release | релиз, выпуск, выпуст, выпущ | -
reject, abandon | отказал, отказыв, отказат | -
update | обновл, обнов | -
remove | удал, убра, убир, убер, выпил | -
require, requirement | требовани, требу, необходим | -
size, volume | размер, объем | -
hourly | ежечас | -
kafka | кафк | -
redis | редис | -
postgres, postgresql | постгрес | -
apply | примен, накат | -
implement | реализац, запил | -
integrate, integration | интеграц, прикрут | -
pull, fetch | пулл, подтян | -
"""

# Session 8 (dev-ru8): the Japanese forms of words the rows above translate. A Russian (or English)
# question reaches a Japanese page only through a row's CJK cell, and the Chinese words there miss the
# katakana loanwords (リンク, チャンネル, バケット) and the Japanese kanji compounds (既存, 依存関係, 継続) that
# Japanese developer prose uses for them. Each row names the Russian stem of the concept it joins.
# Left out: one-character words (行, 型: they would cut compounds apart), katakana that sit inside
# longer unrelated words (ロール inside コントロール), kanji already holding another concept (手順 is
# "step", 修正 "revision", 監視 "tracking"), and what thesaurus.py's ja-words paragraph leaves out
# (実行, 日付, 新規, 完了 cut Chinese apart; ファイル, エラー, ログ, メッセージ, サービス hurt a Japanese
# bank); measured here: デプロイ, テスト, リスト and 検知 too.
ROWS += """link | ссыл | リンク
site, website | веб | サイト
bucket | бакет | バケット
storage | хранени | ストレージ
trigger | триггер | トリガー
mock | мок | モック
channel | канал | チャンネル
bot | бот | ボット
header, title | заголов | ヘッダー, タイトル
phase, stage | этап | フェーズ
local | локальн | ローカル
secret | секрет | シークレット
parser | парс | パーサー
check | провер | チェック
command | команд | コマンド
publish, post | публик | 掲載, 投稿
manual, manually | вручн | 手動
variable | переменн | 変数
dependency | зависимост | 依存関係, 依存
existing | существующ | 既存
fatal | фатальн | 致命的
continue | продолж | 継続
agenda | повестк | 議題
regex | регэксп | 正規表現
relative | относительн | 相対
absolute | абсолютн | 絶対
static | статическ | 静的
virtual | виртуальн | 仮想
recommend, recommended | рекоменд | 推奨
cost | стоимост | コスト
operation, operations | эксплуатац | 運用
track, tracking | наблюд | 追跡
format | формат | 形式
first | - | 初回, 首次
"""
