"""Synonyms of software-engineering and product vocabulary (issue 14, lexicon-syn). Read with `dictionary.ROWS`.

A question names a thing in other words than the page: *ссылка* or *URL*, *настройки* or *конфиг*,
*ускорить* or *performance*, *网址* or *链接*. These rows add the other words — on a concept the
dictionary has (a row sharing a Russian stem or a Chinese word with an earlier row joins that concept,
`Tables.add`) or as a new concept — over the vocabulary of any software bank: version control, build
and CI, testing, data and storage, networking, auth and security, UI, errors and debugging,
performance, deployment and operations, files and paths, configuration, time and scheduling, code and
data types, product and planning. Each row's English words are the ones a developer swaps for one
another; a Russian or Chinese question reaches all of them (`ссылка` finds a page saying "URL").
An English question still meets only its own word's family, as §7.5 has it: English synonyms in the
routing concepts were measured (every allowed set) and moved as many questions down as up.

The list is ours, written from how developers talk before any question set was run with it, and
checked only against the dictionary itself and against lists of ordinary words of our own (no
Russian stem here starts an unrelated common word: `прод` would catch продолжить, `простой` means
simple, `окон` starts окончание, `плавающ` is also the "floating" (flaky) bug; no Chinese word is one
character, which would cut longer words apart, or an ordinary phrase: 还原 is restore, 取得 achieve).
English words whose stem is another word's are left out (`generic` is `generate`'s, `objective`
`object`'s, `production` `product`'s, `availability` `available`'s). Phrases are avoided: a phrase's
words become English words of the row (`lexicon._english_terms`), so "web address" would make
*ссылка* reach every page saying "address"; a concept English names only by a phrase (pull request,
root cause) leaves its English cell empty (`-`): its Russian and Chinese words still meet each other.

Japanese words whose Chinese is another word (issue 14, ja-words): 関数 folds to 关数, not 函数; 設定 to
设定, not 设置. The rows here and in `dictionary.ROWS` carry such words, folded (`variants.fold`; kana
unchanged), in the Chinese cell of their concept, so a Chinese, Russian or English question meets a
Japanese page. Left out: folded words that cut ordinary Chinese apart under longest-match segmentation
(実行 → 实行 in 落实行动, 日付 in 当日付款, 作成 in 制作成本, 定数, 新規, 表示, 完了, 件数, 保守) or that
mean something else in Chinese (取得 achieve), and loanwords measured to hurt a Japanese bank: kana
words nearly every page of such a bank says (デプロイ, ファイル, エラー, テスト, ログ, メッセージ, サービス,
モジュール, ライブラリ, クラウド, バージョン) and general programming words (マージ, ソート, キュー, クラス,
インターフェース, クエリ, プロセス, スレッド, サーバー, ループ) that woke prime on off-topic questions.
"""

from __future__ import annotations

ROWS = """
link, url, uri, hyperlink, href | ссыл, урл | 链接, 网址, 超链接
checkout | чекаут | 检出, 签出
- | пулреквест, мерджреквест | 拉取请求, 合并请求
revert, rollback, undo | откат, ревертн, реверт | 回滚, 撤销
artifact | артефакт | 制品, 构件, 产物
bundle, bundler | бандл | 打包
script | скрипт | 脚本
environment, env | окружени | 环境
assertion, assert | ассерт | 断言
stub | заглушк | 存根
flaky | флаки | 偶发, 不稳定
regression | регресс | 回归
database, db, datastore | бд | 数据库
snapshot | снапшот | 快照
delete, remove, erase, purge, wipe | удал, стира, стерет, стерт | 删除, 清除, 擦除
fetch, retrieve, obtain | получ | 获取
save, store, persist | сохран | 保存
capacity | емкост, вместим | 容量
expire, expiry, expiration, ttl | истек, истеч, протух | 过期, 到期
header | хедер | 头部, 请求头, 标头
redirect | редирект, перенаправ | 重定向, 跳转
throughput, bandwidth | пропускн | 吞吐量, 带宽, 带域
permission, privilege | разрешени, полномочи | 权限
grant | - | 授予
allow, permit | разреш | 允许
forbid, deny, prohibit | запрет, запрещ | 禁止
logout, signout | разлогин | 登出, 注销
signup | регистрац | 注册
credential, credentials | креденш, креды, кредов | 凭证, 凭据
vulnerability | уязвим | 漏洞, 脆弱性
attack | атак | 攻击
sanitize, sanitization | санитиз | 净化
mfa, 2fa | двухфактор | 双因素, 多因素
sandbox | песочниц, сэндбокс | 沙箱, 沙盒
allowlist, whitelist | вайтлист | 白名单
blocklist, blacklist, denylist | блэклист, блеклист | 黑名单
popup, modal, dialog | диалог, попап, всплыва | 弹窗, 弹出
tooltip | подсказк, тултип | 提示, 工具提示
dropdown | выпадающ, дропдаун | 下拉菜单, 下拉框
checkbox | чекбокс | 复选框
switch, toggle | переключ, тоггл | 切换, 开关
sidebar | сайдбар | 侧边栏
internationalization, i18n | интернационализ | 国际化
screenshot | скриншот | 截图, 截屏
swipe | жест, свайп | 手势, 滑动
drag | перетаск | 拖拽, 拖动
placeholder | плейсхолдер | 占位符
grid | сетк | 网格
window | окн, окошк | 窗口, ウィンドウ
diagnose, diagnostics, diagnosis, troubleshoot, troubleshooting | диагност | 诊断, 排查, 排错
hang, freeze, unresponsive | зависа, подвиса | 卡住, 卡死, 卡顿, 无响应
reproduce, repro | воспроизв | 复现, 重现
- | первопричин | 根因, 根本原因
typo, misspelling | опечатк, опечаток | 错别字, 笔误
stacktrace, traceback, backtrace | стектрейс | 堆栈, 调用栈
performance, perf, speed, speedup, accelerate | производительн, ускор | 性能, 加速, 提速, 高速化
bottleneck | бутылочн | 瓶颈
efficiency, efficient | эффективн | 效率, 高效
scalability, scalable | масштаб | 伸缩, 可扩展性
lazy, lazily | ленив | 懒加载, 延迟加载
prefetch, preload | предзагруз, префетч | 预加载, 预取
warmup | прогрев | 预热
memoize, memoization | кэш, мемоиз | 缓存, 记忆化
prod | продакш | 生产环境, 线上环境, 本番环境, 本番
vm | виртуалк | 虚拟机
orchestration, orchestrate | оркестрац, оркестрир | 编排
outage, downtime, unavailable | даунтайм, недоступн | 宕机, 停机, 不可用
uptime | аптайм | 可用性
observability, telemetry | наблюдаемост, телеметри | 可观测性, 遥测
alert, alarm | алерт | 告警, 报警
oncall | дежурств | 值班
postmortem | постмортем | 复盘, 事后分析
retrospective, retro | ретроспектив | 回顾会
healthcheck | хелсчек | 健康检查
cron, crontab | крон | 定时任务
infrastructure, infra | инфраструктур, инфра | 基础设施, 基盘, インフラ
region | регион | 区域, 地域
folder, directory, dir, subdirectory, subfolder | папк, директори, поддиректор | 文件夹, 子目录
hierarchy, tree | дерев, иерарх | 树, 层次结构
monorepo | монорепо | 单体仓库
temporary, temp, tmp | временн | 临时
ignore | игнор | 忽略
configuration, config, configure, setting, settings | настро, конфиг | 设置, 配置
setting, settings | конфиг | -
preferences, prefs | настро | 偏好设置, 首选项
setup | настро | 搭建
override | переопредел | 覆盖, 重写, 上书き
overwrite | перезапис | 覆写
interval | интервал | 间隔
timestamp | таймстемп, таймстамп | 时间戳
duration | длительн, продолжительн | 时长, 持续时间
timezone | таймзон, пояс | 时区
recurring, recurrence | периодич, регулярн | 定期, 周期性
quarter, quarterly | квартал | 季度
mvp | - | 最小可行产品
kpi | метрик | 指标, 关键指标
changelog | ченджлог | 变更日志, 发布说明, 发行说明
churn | отток | 流失
retention | удержани | 留存
trial | триал, пробн | 试用
survey, questionnaire | анкет | 问卷
standup | стендап, планерк | 站会
assignee | владел, исполнител | 负责人, 经办人
effort | трудозатрат, трудоемк | 工作量
mockup, wireframe | макет, вайрфрейм | 线框图, 原型图
enable | включ | 启用, 开启, 有效化
disable | отключ | 禁用, 停用, 无效化
lookup | поиск | 查找
replace, replacement, substitute | замен, замещ | 替换, 替代, 置换
extract, extraction | извлеч, извлек | 提取, 抽取, 抽出
uninstall | деинсталл | 卸载
string | строк | 字符串, 文字列
float, floating | вещественн | 浮点, 浮点数
boolean, bool | булев | 布尔, 布尔值, 真伪值
array | массив | 数组, 配列
object | объект | 对象, オブジェクト
enum, enumeration | перечислени | 枚举
constant | констант | 常量
recursion, recursive | рекурс | 递归
thread | поток, тред | 线程
process | процесс | 进程
gc | мусор | 垃圾回收
regex, regexp | регэксп, регексп, регулярк | 正则, 正则表达式
namespace | неймспейс | 命名空间
sdk | сдк | 开发工具包
coroutine | корутин, сопрограмм | 协程
unused | неиспользуем | 未使用
docstring | докстринг | 文档字符串
inheritance, inherit | наследов | 继承
training, train | обучени, обуча, обучи | 训练
inference | инференс | 推理
finetuning, finetune | файнтюн, дообучени, дообуч | 微调
information, info | информац | 信息, 情报
institution | учрежден | 机构, 机关
struct | - | 结构体, 构造体
disconnect | разъедин | 断开, 切断
inquiry, enquiry | - | 咨询, 问い合わせ
initialization, initialize, init | инициализ | 初始化, 初期化
evaluation, evaluate | - | 评估, 评价
random | случайн | 随机, 随机数, 乱数
maintenance | обслуживан | 维护
mechanism | механизм | 机制, 仕组み
staging | стейдж | 预发布环境, ステージング
add, addition | добав | 添加, 追加
unique, uniqueness | уникальн | 唯一, 一意
booking, reservation | бронир | 预约, 预订, 予约
calculation, calculate | расчет | 计算, 算定
gui, graphical | графическ | 图形界面, 图形用户界面
blocker | меша, препятств | 阻碍, 障碍
throttling, throttle | троттл, тротл | 节流
limit | лимит | 限流
sequentially | последовательн | 依次, 逐个, 逐一
dynamic, dynamically | динамическ | 动态
eventually, ultimately | впоследстви | 最终
"""
