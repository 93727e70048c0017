"""The built-in cross-language dictionary (§7.2, §7.3): one row per concept, English | Russian | Chinese.

Each row reads `english words | russian stems | chinese words`, items separated by commas, `-` for
an empty cell. A Russian entry is a *stem*: the shortest prefix every inflected form shares
(`порог` for пороги, порогов, порогам); where a fleeting vowel breaks that (ошибка/ошибок) the row
lists a stem short enough for both or both forms. English items may be phrases; a phrase is
matched word by word and is not used for the reverse (English → other) direction.

The vocabulary covers software engineering, documentation governance and product work — the
words real banks put in titles, purposes and canonical keys. It is our own list, written for this
project. A bank adds its own terms in `dna/vocabulary.md` (§7.4).
"""

from __future__ import annotations

ROWS = """
deploy, deployment | депло, деплой, развертыв, разверт, разверн, выкат | 部署
threshold | порог | 阈值, 门限, 临界值
filter | фильтр | 过滤, 筛选, 过滤器, 绞り込み
decision, decide | решени, решил, реша | 决定, 决策
queue | очеред | 队列
test, testing | тест | 测试
schema | схем | 数据模式, 模式定义, スキーマ
template | шаблон | 模板, テンプレート
index | индекс | 索引, インデックス
quarantine | карантин | 隔离, 隔离区
architecture | архитектур | 架构, 体系结构
security, secure | безопасн | 安全
protection, protect | защит | 保护, 防护
session | сесси, сеанс | 会话, セッション
user | пользовател, юзер | 用户, 利用者, ユーザー, ユーザ
page | страниц | 页面, 页, ページ
screen | экран | 屏幕, 画面
book, ebook | книг, книжн | 书, 书籍, 图书, 电子书
chapter | глав | 章节, 章
image, picture | изображени, картинк, картин | 图片, 图像, 画像
cover | облож | 封面
message | сообщени, сообщен | 消息
notification, notify | уведом, оповещ | 通知
device | устройств, девайс | 设备
token | токен | 令牌, 词元, トークン
key | ключ | 密钥, 键, キー, 秘密键, 公开键, 私钥, 公钥
encryption, encrypt, cipher | шифр, зашифр | 加密, 暗号化, 暗号
decryption, decrypt | расшифр, дешифр | 解密, 复号
storage, store | хранени, хранилищ, хран | 存储, 储存
sync, synchronization | синхрон | 同步
cache | кэш, кеш | 缓存, キャッシュ
release | релиз, выпуск | 发版, 版本发布, リリース
publish | публик, опублик | 发布, 出版
package | пакет | 包, 软件包, パッケージ
include | включ | 包括, 包含
dependency, depend | зависимост, завис | 依赖, 依存
error | ошиб | 错误, 报错
build | сборк, сборок, собира, собран | 构建, ビルド
compile, compiler | компил | 编译, 编译器
server | сервер | 服务器, 服务端
client | клиент | 客户端, クライアント
request, query | запрос | 请求, リクエスト
query | - | 查询
response, answer, reply | ответ | 响应, 回答, 回复, 答案, レスポンス, 返信, 应答
database | бд, баз данн | 数据库, データベース
base, basic | базов | 基础
table | таблиц | 表格, 数据表, テーブル
search | поиск | 搜索, 检索, 查找
route, routing | маршрут | 路由, ルーティング
configuration, config, configure | конфиг | 配置
setting, settings | настро | 设置, 设定
environment | окружени, сред | 环境
variable | переменн | 变量
function | функци | 函数, 关数
method | метод | 方法, メソッド
class | класс | 类
module | модул | 模块
component | компонент | 组件, コンポーネント
service | сервис, служб | 服务
api, interface | интерфейс, апи | 接口
ui, user interface | - | 界面, 用户界面
endpoint | эндпоинт | 端点, エンドポイント
field | поле, поля, полей, полям, полях | 字段, カラム, フィールド
value | значени | 值, 数值
type | тип | 类型
model | модел | 模型
data | данн | 数据, データ
file | файл | 文件
folder, directory | папк, папок, каталог, директори | 文件夹, 目录, フォルダ, フォルダー, ディレクトリ
path | пут | 路径, パス
link | ссыл | 链接
document, documentation, docs | документ, документац | 文档, ドキュメント, 文书
note | заметк, заметок | 笔记, 备注
rule | правил | 规则
policy | политик | 政策, 方针
principle | принцип | 原则
glossary | глоссари | 术语表
vocabulary, dictionary | словар, лексик | 词汇, 词典, 字典, 辞书
term, terminology | термин | 术语
changelog | ченджлог, чейнджлог | 变更日志, 更新日志
version | верси | 版本
migration, migrate | миграц, мигрир | 迁移, 移行, マイグレーション
update, upgrade | обновл | 更新, 升级, アップデート
create, creation | созда | 创建, 新建
delete, remove | удал | 删除, 移除, 削除
edit, editor | редакт, правк, правок | 编辑, 编集
write, record | запис | 写入, 记录, 书き込み
read, reading | чтени, чита, прочит | 读取, 阅读, 读み込み, 读み取り
parse, parser, parsing | парс, разбор, разбир | 解析, 解析器
format | формат | 格式
encoding, charset | кодировк, кодировок, кодирован | 编码
language | язык | 语言
translation, translate | перевод | 翻译
localization | локализац | 本地化
text | текст | 文本
paragraph | абзац, параграф | 段落
sentence | - | 句子
proposal, offer | предложени | 提案
word | слов | 单词, 词语
title | заголов | 标题
name, naming | имя, имен, назван, именов | 名称, 名字, 命名
section | раздел, секци | 小节, 部分
list | спис | 列表, 清单, 一览
item | элемент, пункт | 条目
order, sort | порядк, порядок, сортир | 排序, 顺序
rank, ranking | ранжир, рейтинг | 排名
score | оцен, балл | 评分, 分数, 得分
estimate | оцен | 估算, 见积
weight | вес | 权重
priority | приоритет | 优先级
status | статус | 状态
state | состояни | 状态, 状态机
lifecycle | жизненн | 生命周期
draft | чернов | 草稿
active, activate | активн, актив | 激活, 活跃
archive, zip | архив | 归档, 存档, 压缩包
review | ревью, рецензи | 审查, 评审, 审核
check, verify, verification | провер, верифик | 检查, 校验, 验证, 检证, バリデーション
approval, approve | одобр, утвержд | 批准, 审批
owner, ownership | владел, владен | 所有者, 负责人, 担当者
responsibility | ответствен | 职责, 责任
team | команд | 团队
command | команд | 命令
role | роль, роли, ролей, ролям | 角色, 役割
permission | разрешени | 权限
access | доступ | 访问
authentication, auth | аутентиф | 认证, 身份验证
authorization | авториз | 授权, 认可
login, sign in | логин, вход, войт | 登录, ログイン
password | парол | 密码, パスワード
account | аккаунт, учетн | 账户, 账号, アカウント
profile | профил | 个人资料
payment, pay | оплат, плат | 支付, 付款, 支拂い, 决济
price, pricing | цен, прайс | 价格, 定价
subscription, subscribe | подписк, подписок, подписат, подписыв | 订阅
signature | подпис | 签名
invoice | счет, инвойс | 发票, 请求书
bill, statement | - | 账单
billing | биллинг, тарификац | 计费
customer | покупател, заказчик | 客户, 顾客
purchase order | заказ | 订单
cart | корзин | 购物车
product | продукт | 产品
feature | фич, функциональн | 功能, 特性
epic | эпик | 史诗
task, job, assignment | задач, задани | 任务, タスク
plan, planning | план | 计划, 规划, 予定
roadmap | роадмап, дорожн | 路线图
vision | видени | 愿景
goal | цель, цели, целей, целям | 目标
requirement | требовани | 需求, 要求, 要件
constraint, limitation, restriction | ограничени | 约束, 制约
risk | риск | 风险
metric | метрик | 指标, 度量, メトリクス
performance | производительн, быстродейств | 性能
speed | скорост | 速度
latency, delay | задержк, задержек, латентн | 延迟, 延时, 迟延
memory | памят | 内存, 记忆, メモリ
processor, cpu | процессор | 处理器
log, logging | лог, журнал | 日志
logic | логик | 逻辑
monitoring, monitor | монитор | 监控
alert | алерт | 告警, 警报, アラート
incident | инцидент | 事故
backup | бэкап, бекап, резервн | 备份, バックアップ
restore, recovery | восстанов | 恢复, 复元, 复旧
failure, fail | сбой, сбоя, сбое, сбоев, сбои, сбоям, сбоями, сбоях, отказ | 故障, 失败, 障害
collect, collection | сбор | 收集
retry | повтор | 重试, 再试行, リトライ
timeout | таймаут | 超时, タイムアウト
limit | лимит | 限制, 上限, 制限
frequency, rate | частот | 频率
quota | квот | 配额
budget | бюджет | 预算
cost | стоимост, затрат | 成本, 费用, 料金
scale, scaling | масштаб | 扩容, 伸缩, 规模
load | нагрузк, нагрузок, загруз | 负载, 加载, 负荷
balance | баланс | 均衡, 平衡, 余额
network | сеть, сети, сетев, сетей | 网络, ネットワーク
connection, connect | соединени, подключ, коннект | 连接, 接续
socket | сокет | 套接字
protocol | протокол | 协议
event | событи | 事件, イベント
stream | поток | 流, 数据流
flow, thread | поток | -
pipeline | пайплайн, конвейер | 流水线, 管道, パイプライン
job | джоб | 作业
worker | воркер | 工作进程
schedule | расписани | 日程, 排期
scheduler | планировщ | 调度, 调度器
hook | хук | 钩子
plugin | плагин | 插件, プラグイン
extension | расширени | 扩展
adapter | адаптер | 适配器
wrapper, encapsulation | оберт | 封装, 包装
library | библиотек | 库, 函数库
framework | фреймворк | 框架, フレームワーク
runtime | рантайм | 运行时
platform | платформ | 平台
mobile, phone | мобильн, телефон | 移动端, 手机, 电话
desktop | десктоп | 桌面
web, website | веб, сайт | 网页, 网站
browser | браузер | 浏览器, ブラウザ
application, app | приложени | 应用, 应用程序, アプリ, アプリケーション
frontend | фронтенд, фронт | 前端
backend | бэкенд, бекенд | 后端
design | дизайн, проектировани | 设计
layout | верстк, макет, лейаут | 布局
markup | разметк, разметок | 标记
style | стил | 样式, 风格
theme, topic | тема, темы, теме, тему, темой, топик | 主题, 话题
color | цвет | 颜色
font | шрифт | 字体
icon | иконк, значок, значк | 图标, アイコン
button | кнопк, кнопок | 按钮, ボタン
form | форм | 表单, フォーム
input | ввод, входн | 输入, 入力
output | вывод, выходн | 输出, 出力
validation, validate, validator | валид | 校验器
lint, linter | линт | 代码检查
commit | коммит | 提交, コミット
branch | ветк, веток | 分支, ブランチ
merge | слияни, мерж, смерж | 合并
repository, repo | репозитори, репо | 仓库, 代码库, リポジトリ
code | код | 代码
source | исходн, источник | 源码, 源代码, 来源
comment | комментари | 注释, 评论
bug, defect | баг, дефект | 缺陷, 不具合, バグ
fix | исправ, фикс | 修复
issue, problem | проблем | 问题
question | вопрос | 提问
ticket | тикет | 工单
deadline | дедлайн, срок | 截止日期, 期限
sprint | спринт | 冲刺
meeting | встреч, совещани | 会议
contract | контракт, договор | 契约, 合同
governance, management | управлени | 治理, 管理
metadata | метаданн | 元数据
canonical | канон | 权威来源
specification, spec, standard | спецификац, стандарт | 规范, 规格, 标准, 仕样
derived, derive | производн | 派生
upstream | вышестоящ | 上游
downstream | нижестоящ | 下游
graph | граф | 图谱
chart | график, диаграм | 图表
edge | ребр | 边
relation, relationship | связ, отношени | 关系
node | узел, узл | 节点
cycle, loop | цикл | 循环
reference | референс | 引用, 参考
drift, divergence | дрейф, расхожд | 漂移
anchor | якор | 锚点
inbox | инбокс, входящ | 收件箱
promote, promotion | продвиж | 晋升, 提升
discard | отбрасыв, отброс | 丢弃
reject, rejection | отклон | 拒绝, 驳回
process, handle, handler | процесс, обраб | 处理, 过程
workflow | воркфлоу | 工作流, ワークフロー
flow, process | - | 流程
prompt | промпт | 提示词
hint, tip | подсказк, подсказок | 提示
agent | агент | 智能体
proxy | прокси | 代理, プロキシ
context | контекст | 上下文, 语境
embedding | эмбеддинг | 嵌入
vector | вектор | 向量
chat | чат | 聊天
assistant | ассистент, помощник | 助手
knowledge | знани | 知识
fact | факт | 事实
domain | домен | 领域, ドメイン
development, engineering | разработк, разработок, инженер | 开发, 研发, 工程
operations, ops | эксплуатац, операц | 运维, 运营
research | исследовани | 研究, 调研
strategy | стратеги | 策略, 战略
scenario, use case | сценари | 场景, 用例
media | медиа | 媒体
video | видео | 视频
audio, sound | аудио, звук | 音频, 声音
photo | фото | 照片
upload | аплоад | 上传, アップロード
download | скач | 下载, ダウンロード
bucket | бакет | 存储桶
attachment | вложени | 附件, 添付
push | пуш | 推送
offline | офлайн, оффлайн | 离线
online | онлайн | 在线
conflict | конфликт | 冲突
lock | блокир, блок | 锁, 加锁
block | блок | 阻塞
transaction | транзакц | 事务, 交易
concurrency, parallel | конкурентн, параллельн | 并发, 并行
async, asynchronous | асинхрон | 异步, 非同期
callback | колбэк, коллбэк | 回调
promise | промис | 承诺
singleton | синглтон, одиночк | 单例
injection, inject | инъекц, внедр | 注入
middleware | мидлвар, промежуточн | 中间件, ミドルウェア
container | контейнер | 容器, コンテナ
docker | докер | -
kubernetes, k8s | кубер | -
cluster | кластер | 集群
instance | экземпляр, инстанс | 实例
host | хост | 主机, ホスト
certificate | сертификат | 证书, 证明书
secret | секрет | 机密, 秘密
hash | хэш, хеш | 哈希, 散列, ハッシュ
email, mail | почт, имейл | 邮件, 电子邮件
sms | смс | 短信
contact | контакт | 联系人
address | адрес | 地址
location, position | местоположени, локац, позици | 位置, 定位
map, card | карт | 地图
card | карточк | 卡片
time | врем | 时间
temporary | временн | 临时
date | дата, даты, дате, дату, датой | 日期
dataset | датасет | 数据集
calendar | календар | 日历
reminder | напоминани | 提醒
badge | бейдж | 徽章
counter | счетчик | 计数器
statistics, stats | статистик | 统计, 集计
analysis, analytics | аналитик, анализ | 分析
report | отчет | 报告, 报表, レポート, 帐票
dashboard, panel | дашборд, панел | 仪表板, 仪表盘, 面板, ダッシュボード
export | экспорт, выгруз | 导出, エクスポート, 书き出し
import | импорт | 导入, インポート, 取り込み
reader | читалк, ридер, читател | 阅读器
footnote | сноск, сносок | 脚注
annotation | аннотац | 注解, 批注
bookmark | закладк, закладок | 书签
highlight | подсветк, выделени | 高亮
shelf | полк, полок | 书架
progress | прогресс | 进度, 进捗
table of contents, toc | оглавлени | 目录
content | содержим, содержани, контент | 内容
navigation | навигац | 导航
spine | спайн | 书脊
pagination | пагинац | 分页
author | автор | 作者
publisher | издател | 出版社, 出版商
edition | издани | 版次
segmentation, segment | сегмент | 分段, 分词, 切分
corpus | корпус | 语料, 语料库
run | прогон, запуск | 运行, 稼动
launch, start | старт, начал | 启动, 开始, 上线, 起动
stop | останов, стоп | 停止
finish, end | заверш, конец, конц | 结束
complete, done | готов | 完成
room | комнат | 房间
timeline, feed | таймлайн, лент | 时间线, 时间轴
member | участник, член | 成员
invite, invitation | приглаш | 邀请
reaction | реакци | 反应
receipt | квитанц | 回执, 领收书
presence | присутстви | 在线状态
avatar | аватар | 头像
homeserver | хоумсервер | 主服务器
end-to-end, e2ee | сквозн | 端到端
matrix | матриц | 矩阵
emoji | эмодзи | 表情
finding | наход | 发现
warning | предупрежд | 警告
severity | серьезн, критичн | 严重性, 严重程度
register, registration, registry | реестр, регистрац | 注册, 登记
layer | слой, слоя, слое, слои, слоев, слоям, слоями, слоях | 层, 层级
level, tier | уров | 级别, 等级
excerpt, snippet, fragment | фрагмент, отрывок | 片段, 摘录
summary | резюме, сводк | 摘要, 总结
overview | обзор | 概述, 概览
introduction | введени | 介绍, 简介
guide, manual | руководств | 指南, 手册
instruction | инструкц | 指令, 说明
tutorial | туториал, урок | 教程
example | пример | 示例, 例子
convention, agreement | соглашени, конвенц | 约定, 惯例, 规约
refactoring, refactor | рефактор | 重构
optimization, optimize | оптимиз | 优化, 最适化
benchmark | бенчмарк | 基准测试, 基准
profiling | профилиров | 性能分析
debug, debugging | отладк, отлад, дебаг | 调试
trace, tracing | трассировк, трейс | 追踪, 跟踪
exception | исключени | 异常, 例外
crash | краш, падени, вылет | 崩溃
abstraction | абстракц | 抽象
implementation, implement | реализац, реализ, имплементац | 实现, 实装
integration, integrate | интеграц, интегрир | 集成, 连携
unit | юнит | 单元
coverage | покрыти | 覆盖率
fixture | фикстур | 夹具
mock, simulation | мок, симуляц | 模拟
admin, administrator | админ | 管理员, 管理者
guest | гост | 访客
onboarding | онбординг | 入门, 引导
tenant | арендатор, тенант | 租户
organization | организац | 组织
workspace, space | пространств | 工作区, 空间
project | проект | 项目
disk | диск | 磁盘
broker | брокер | 消息代理
channel | канал | 频道, 通道
webhook | вебхук | 网络钩子
serialization, serialize | сериализ | 序列化
deserialization, deserialize | десериализ | 反序列化
compression, compress | сжат, сжим | 压缩
locale | локал | 区域设置
accessibility | доступност | 无障碍, 可访问性
responsive | адаптивн | 响应式
animation | анимац | 动画
gesture | жест | 手势
keyboard | клавиатур | 键盘
buffer | буфер | 缓冲区
clipboard | - | 剪贴板
scroll | прокрутк, скролл | 滚动
dialog, modal | диалог, модальн | 对话框, 弹窗, ダイアログ
menu | меню | 菜单, メニュー
tab | вкладк, вкладок | 标签页
tag, label | тег, метк, меток | 标签
category | категори | 类别, 分类
group | групп | 分组, 组
history | истори | 历史, 履历
story | истори | 故事
audit | аудит | 审计, 监查
compliance | соответстви | 合规
guard | охран | 守卫
delivery, deliver | достав | 交付, 投递
truncation, truncate | обрез, усечени | 截断
recipe | рецепт | 配方, 食谱
skill | навык | 技能
pattern, glob | паттерн | 模式
symlink | симлинк | 符号链接
atomic | атомарн | 原子
transcript | транскрипт, стенограм | 转录
terminal, console | терминал, консол | 终端, 控制台, 端末
cli, command line | - | 命令行
parameter, option, flag | параметр, опци, флаг | 参数, 选项, 引数
argument | аргумент | 实参
default | умолчани | 默认, 既定, 初期值
mode | режим | 模式
resource | ресурс | 资源
tool | инструмент | 工具
ai, llm | нейросет | 人工智能, 大模型
license | лиценз | 许可证, 许可
contributor | контрибьютор | 贡献者
support | поддержк | 支持
feedback | фидбек | 反馈
privacy | приватност, конфиденциальн | 隐私
consent | согласи | 同意
gateway | шлюз | 网关
memory leak, leak | утечк, утечек | 泄漏, 泄露
fallback, degrade, degraded | деград, запасн, фолбэк | 降级, 回退
deprecated, obsolete, legacy | устаревш, легаси | 弃用, 废弃, 遗留
old | стар | 旧
new | нов | 新
experiment, experimental | эксперимент | 实验
change, modify, modification | измен | 变更, 修改, 更改, 变化, 改修
diff, difference | дифф, разниц, различи | 差异, 差分
compare, comparison | сравн | 比较, 对比
copy | копи | 复制, 拷贝
move | перемещ, перенос, перенес | 移动
rename | переимен | 重命名
split, partition | разбиени, разби | 拆分, 分割
join, union | объедин | 联合
generate, generation, generator | генер, формир | 生成
render, rendering | рендер, отрисов | 渲染
display, show | отображ, показ | 显示, 展示
hide, hidden | скры | 隐藏, 非表示
select, choose, choice, selection | выбор, выбр, выбира | 选择
click, tap | нажат, клик, тап | 点击, クリック, タップ
send | отправ, посыл | 发送, 送信
receive, get, fetch | получ | 接收, 获取, 受信
listen, listener | слуша, прослуш | 监听
watch, track, tracking | наблюд, отслеж, трекинг | 跟踪, 追踪, 监视
manager | менеджер | 管理器
controller | контроллер | 控制器
view | представлени, вью | 视图
effect | эффект | 效果
market | рынок, рынк | 市场
competitor | конкурент | 竞争对手, 竞品
value proposition, worth | ценност | 价值
audience | аудитори | 受众
persona | персон | 用户画像
hypothesis, assumption | гипотез, предположени | 假设
milestone | вех, майлстоун | 里程碑
backlog | бэклог, беклог | 待办事项, 待办
acceptance | приемк | 验收
criteria, criterion | критери | 标准项, 准则
stakeholder | стейкхолдер, заинтересован | 利益相关者, 干系人
mission | мисси | 使命
duplicate, duplication | дубл | 重复
consistency | согласованн, консистентн | 一致性
integrity | целостн | 完整性
invariant | инвариант | 不变量
traceability | трассируем | 可追溯性
truth | истин | 真相
define, definition | определ | 定义
use, usage | использ, применени | 使用, 用法
own, self | собствен | 自己, 自有
instead | вместо | 而不是
reason, cause | причин | 原因
rationale, justification | обоснован | 理由
trade-off, compromise | компромисс | 权衡, 取舍
alternative | альтернатив | 替代方案
consequence | последстви | 后果
money | деньг, денег, денеж | 钱, 资金
amount, sum | сумм | 金额, 数额
cent, cents | цент | 美分
currency | валют | 货币
integer | целочисл, цело, целы | 整数
number, numbering | номер, нумерац, числ | 编号, 数字, 数量
tax | налог | 税, 税务
rate, tariff | ставк, ставок, тариф | 费率, 资费
tax rate | - | 税率
ledger | леджер, гроссбух | 总账, 账本
refund | возврат | 退款
discount | скидк, скидок | 折扣
monthly, month | месяч, месяц | 每月, 月度
daily, day | ежедневн, день, дня, дней | 每天, 每日
week, weekly | недел | 每周
year, yearly | год | 年度
total | итог | 总计, 合计
rounding, round | округл | 舍入, 四舍五入
accounting | бухгалтер, учет | 会计, 记账
provider | провайдер, поставщик | 提供商, 服务商
polling, poll | опрос | 轮询
job queue | - | 任务队列
layout, structure | структур | 结构, 构造
retry policy | - | 重试策略
scope | рамк, рамок, охват, скоуп | 范围
serve, serves | обслуж | 服务于
solve, resolve | - | 解决
out of scope | - | 范围外
stall, hang | зависа | 卡住, 停滞
kind | вид | 种类, 类别
entry point | - | 入口
root | корн, корен | 根, 根目录
tree | дерев | 树
upstream | - | 上级
authority | авторитет | 权威
home | дом | 主页
single source of truth, ssot | - | 单一事实来源
checklist | чеклист | 检查清单
gotcha, pitfall, trap | подводн, ловушк | 陷阱
strict, strictness | строг | 严格
save, persist, persistence | сохран | 保存, 持久化
return | возвращ | 返回, 戾り值
throw, raise | выбрас, брос | 抛出
result | результат | 结果
empty | пуст | 空
flat | плоск | 扁平
public | публичн, открыт | 公开, 公共
private | приватн | 私有
nested | вложенн | 嵌套
verse, poem | стих | 诗歌
quote, quotation | цитат | 引文
separate | отдельн | 单独
optional | опционал, необязательн | 可选
required, mandatory | обязательн | 必需, 必填
equality, equal | равенств, равн | 相等
center, central | центр, централ | 中心, 中央
system | систем | 系统
main, primary | главн, основн | 主要
boundary, border | границ | 边界
reliability, reliable | надежн | 可靠性, 可靠
improvement, improve, enhancement | улучш, усовершенств | 改进, 改善
byte | байт | 字节
conversion, convert, transform | конверт, преобраз | 转换, 转化, 变换
preserve, retain, keep | - | 保留
body | - | 正文, 主体
interpolation, interpolate | интерпол | 插值
text | - | 文字
bot, robot | бот, робот | 机器人
pain point | - | 痛点
next, upcoming | следующ | 接下来, 下一步
prepare, preparation | подготов | 准备
aspect | аспект | 方面
english | английск | 英文, 英语
russian | русск | 俄文, 俄语
chinese | китайск | 中文, 汉语
japanese | японск | 日文, 日语
work | работ | 工作
execute, execution | выполн, исполн | 执行
percent, percentage | процент | 百分比
start, begin | начат, начин | -
remaining, remain | остал, остат | 剩余, 剩下
stage, phase | этап, стади, фаз | 阶段
appear | появ | 出现
serverless | бессерверн | 无服务器
cloud | облак, облачн | 云, 云端
insufficient, enough, sufficient | недостаточн, достаточн | 不足, 足够
lose, lost, loss, disappear | пропад, пропал, пропаст, потер, исчез | 丢失, 消失
automatic, automation, automate | автомат | 自动, 自动化
compatibility, compatible | совместим | 兼容, 兼容性
idle | бездейств, простаива | 空闲
consumption, consume | потребл | 占用, 消耗
program, programming | программ | 程序, 编程
programming language | - | 编程语言
cope | справля | 应对
running, launched | запущ | 运行中
select, choose | выбра | 选用, 挑选
count, quantity | количеств | 计数
open | откры | 打开
slow | медлен | 慢, 缓慢
fast, quick | быстр | 快速
install, installation | установ, инсталл | 安装, インストール
daemon, background | демон, фонов | 守护进程, 后台
explicit, explicitly | явн | 明确, 显式
demo, demonstration | демо, демонстрац | 演示
stable, stability | стабильн | 稳定
technical, technology, tech | технич, технолог | 技术
debt | долг | 债, 债务
transport | транспорт | 传输
amend, amendment | поправ | 修订, 修正
accept, accepted | принят, принима | 接受, 采纳
damage, corrupt, broken | поврежд | 损坏
declare, declaration | деклар, объявл | 声明, 宣言
invalid | невалидн, некорректн, недопустим | 无效, 非法
illustration | иллюстрац | 插图
original | оригинал | 原始
multiple | нескольк | 多个
prevent, prevention | предотвра | 防止, 防范
identity, identifier, id | идентифик | 标识, 身份, 标识符, 识别子
concrete | конкретн | 具体
vendor, producer, maker | производител | 厂商, 制作方
payload | - | 载荷
call, invoke | вызов, звонок | 调用, 呼叫, 呼び出し
voice | голос | 语音, 音声
restart, reboot | перезапус | 重启
detect, detection | обнаруж | 检测
trigger | триггер, срабатыв | 触发
periodic | периодич | 定期
scan | скан | 扫描
scrape, crawl | - | 爬取, 抓取
size | размер | 大小, 尺寸
maximum | максим | 最大
minimum | миним | 最小
average | средн | 平均
step | шаг | 步骤, 手顺
rollback | откат | 回滚, ロールバック
cleanup, clean | очист | 清理
port | порт | 端口, ポート
continuous integration, ci | - | 持续集成
mirror | зеркал | 镜像
free | бесплатн | 免费
open source | - | 开源
user experience, ux | - | 用户体验
tablet | планшет | 平板
blockchain | блокчейн | 区块链
chain | цепоч, цепи | 链
fee, commission | комисси | 手续费
announcement | - | 公告
success, successful | успешн, успех | 成功
concept | концепц | 概念
proof of concept, poc | - | 概念验证
prototype | прототип | 原型
advantage | преимуществ | 优势
"""

# issue 14 (route-roles): the words naming a Cline-layout file's job (layoutwords.py)
from .layoutwords import ROWS as _LAYOUT_ROWS  # noqa: E402

# issue 14 (ru-lexicon): the Russian words of developer questions the rows above lacked (russianwords.py)
from .russianwords import ROWS as _RUSSIAN_ROWS  # noqa: E402

# issue 14 (lexicon-syn): synonyms of engineering and product words, en | ru | zh (thesaurus.py)
from .thesaurus import ROWS as _THESAURUS_ROWS  # noqa: E402

ROWS = ROWS.rstrip("\n") + _LAYOUT_ROWS.rstrip("\n") + _RUSSIAN_ROWS.rstrip("\n") + _THESAURUS_ROWS
