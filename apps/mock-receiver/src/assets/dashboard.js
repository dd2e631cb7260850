// Dashboard of the reference receiver: plain DOM, no framework, no build step.
// Everything shown comes from the receiver's own API; the live part is the SSE stream /api/events.
'use strict';

(function () {
  const orders = new Map(); // sendId -> sent order view
  let movesEnabled = false; // the service's internal transitions are configured (one-machine mode)
  const FINAL = new Set(['DELIVERED', 'CANCELED', 'FAILED']);
  const chosenReasons = new Map(); // sendId -> cancel reason picked (rows are re-rendered as webhooks arrive)
  const CANCEL_REASONS = ['CUSTOMER_REQUEST', 'OUT_OF_STOCK', 'WRONG_ADDRESS', 'CUSTOMER_NOT_AVAILABLE', 'COURIER_NOT_AVAILABLE', 'RESTAURANT_CLOSED', 'OTHER'];
  const webhooks = new Map(); // receiptId -> received webhook
  const tracked = new Map(); // yemekKuryeOrderId -> order as its webhooks report it (sent here or not)
  const stores = new Map(); // integrationId -> store state as the availability webhooks report it
  const drifts = new Map(); // driftEventId -> menu drift report of a catalog.drift_detected webhook
  const AVAILABILITY = 'restaurant.availability_changed';
  const CATALOG_DRIFT = 'catalog.drift_detected';
  const $ = (id) => document.getElementById(id);

  /** Creates an element; children may be strings (as text, never HTML) or nodes. */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'className') node.className = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function timeEl(iso) {
    if (!iso) return '';
    const date = new Date(iso);
    return el('time', { datetime: iso, title: iso }, Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString());
  }

  function badge(text, tone, title) {
    return el('span', { className: `badge badge-${tone}`, title }, text);
  }

  const STATUS_TONE = { DELIVERED: 'ok', CANCELED: 'bad', FAILED: 'bad' };
  const STORE_TONE = { OPEN: 'ok', BUSY: 'warn', CLOSED: 'bad' };
  const OUTCOME_TONE = { applied: 'ok', duplicate: 'neutral', stale: 'warn', rejected: 'bad' };
  const VERDICT_TONE = { valid: 'ok', invalid: 'bad', missing: 'bad', 'not-checked': 'neutral' };

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.json();
  }

  // ---- configuration -------------------------------------------------------------------------

  function renderConfig(config) {
    const v = config.variables;
    const rows = [
      ['Intake endpoint', 'SERVICE_API_URL', config.intakeUrl],
      ['Restaurant', 'SERVICE_RESTAURANT_ID', v.SERVICE_RESTAURANT_ID || 'not set'],
      ['API key', 'SERVICE_API_KEY', v.SERVICE_API_KEY || 'not set'],
      ['Webhook secret', 'WEBHOOK_SECRET', v.WEBHOOK_SECRET || 'not set'],
      ['X-Service-Signature', '', config.signatureVerification.serviceSignature],
      ['Standard Webhooks', '', config.signatureVerification.standardWebhooks],
      ['Status webhook URL', '', location.origin + config.receiverPaths.status],
      ['Cancel webhook URL', '', location.origin + config.receiverPaths.cancel],
      ['State file', 'RECEIVER_DATA_FILE', v.RECEIVER_DATA_FILE],
      ['History kept', 'RECEIVER_HISTORY_LIMIT', `${v.RECEIVER_HISTORY_LIMIT} orders and webhooks`],
    ];
    $('config-list').replaceChildren(
      ...rows.map(([term, variable, value]) =>
        el('div', {}, el('dt', {}, term, variable ? el('span', { className: 'sub' }, variable) : null), el('dd', {}, value)),
      ),
    );
  }

  // ---- sent orders ---------------------------------------------------------------------------

  function answerCell(order) {
    if (!order.response) return el('td', {}, badge('unreachable', 'bad'), el('span', { className: 'sub' }, order.error || ''));
    const { status, body } = order.response;
    const tone = status >= 200 && status < 300 ? 'ok' : 'bad';
    const code = body && typeof body === 'object' ? body.code || body.status : undefined;
    return el(
      'td',
      {},
      badge(`HTTP ${status}`, tone),
      code ? el('span', { className: 'sub' }, String(code)) : null,
      order.yemekKuryeOrderId ? el('span', { className: 'sub', title: 'yemekKuryeOrderId' }, order.yemekKuryeOrderId) : null,
    );
  }

  function statusCell(order) {
    if (!order.status) {
      const waiting = order.response && order.response.status >= 200 && order.response.status < 300;
      return el('td', { 'data-status': '' }, el('span', { className: 'sub' }, waiting ? 'awaiting webhooks' : '—'));
    }
    const cancel = order.cancel ? [order.cancel.cancelReasonId, order.cancel.reason].filter(Boolean).join(': ') : '';
    return el(
      'td',
      { 'data-status': order.status },
      badge(order.status, STATUS_TONE[order.status] || 'info'),
      el('span', { className: 'sub' }, timeEl(order.statusAt)),
      cancel ? el('span', { className: 'sub' }, cancel) : null,
    );
  }

  const LATE_TITLE = 'Its webhook arrived after that of a later status: not applied, shown in its place';

  /** Statuses oldest first by their timestamp; one whose webhook came after a later one is marked late (in words, not only colour). */
  function historyCell(statusHistory) {
    const history = [...(statusHistory || [])].reverse();
    if (!history.length) return el('td', {}, '');
    return el(
      'td',
      {},
      el(
        'ol',
        { className: 'history', 'aria-label': 'Statuses, oldest first' },
        history.map((h) =>
          h.late
            ? el('li', { className: 'late', 'data-late': 'true', title: LATE_TITLE }, el('span', {}, h.status), ' ', badge('late', 'warn', LATE_TITLE))
            : el('li', {}, h.status),
        ),
      ),
    );
  }

  /** Where the order came from: THIRD_PARTY, or the platform of a platform order (the status webhooks' provider). */
  function providerText(provider) {
    return provider ? el('span', { className: 'sub provider', title: 'provider' }, provider) : null;
  }

  function orderRow(order, fresh) {
    return el(
      'tr',
      { 'data-order-id': order.orderId, className: fresh ? 'fresh' : undefined },
      el('td', { className: 'id' }, order.orderId, providerText(order.provider)),
      el('td', {}, timeEl(order.sentAt)),
      answerCell(order),
      statusCell(order),
      historyCell(order.statusHistory),
      moveCell(order),
    );
  }

  /** Each cell names its column (data-label), so that on a narrow screen a row reads as a card. */
  function labelCells(table, rows) {
    const labels = [...table.tHead.rows[0].cells].map((cell) => cell.textContent.trim());
    for (const row of rows) [...row.cells].forEach((cell, index) => cell.setAttribute('data-label', labels[index] || ''));
    return rows;
  }

  function renderOrders(freshId) {
    const list = [...orders.values()].sort((a, b) => (a.sentAt < b.sentAt ? 1 : a.sentAt > b.sentAt ? -1 : 0));
    const table = $('orders-table');
    table.tBodies[0].replaceChildren(...labelCells(table, list.map((order) => orderRow(order, order.sendId === freshId))));
    $('orders-empty').hidden = list.length > 0;
  }

  // ---- orders known only from their webhooks (platform orders, orders sent elsewhere) -------

  function trackedRow(order, fresh) {
    return el(
      'tr',
      { 'data-tracked-id': order.yemekKuryeOrderId, 'data-provider': order.provider || '', className: fresh ? 'fresh' : undefined },
      el('td', { className: 'id' }, order.orderId, el('span', { className: 'sub', title: 'yemekKuryeOrderId' }, order.yemekKuryeOrderId)),
      el('td', { className: 'platform' }, order.provider ? badge(order.provider, 'info') : el('span', { className: 'sub' }, 'not named yet')),
      statusCell(order),
      historyCell(order.statusHistory),
    );
  }

  function renderTracked(freshId) {
    const list = [...tracked.values()].filter((order) => !order.sentHere).sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
    const table = $('tracked-table');
    table.tBodies[0].replaceChildren(...labelCells(table, list.map((order) => trackedRow(order, order.yemekKuryeOrderId === freshId))));
    $('tracked-empty').hidden = list.length > 0;
  }

  // ---- store status (restaurant.availability_changed) -----------------------------------------

  function storeStateBadge(state, until) {
    return [badge(state || '?', STORE_TONE[state] || 'info'), until ? el('span', { className: 'sub' }, 'until ', timeEl(until)) : null];
  }

  function storeRow(store, fresh) {
    const differs = store.expectedState && store.expectedState !== store.state;
    return el(
      'tr',
      { 'data-integration-id': store.integrationId, 'data-state': store.state, className: fresh ? 'fresh' : undefined },
      el('td', { className: 'id' }, store.integrationId, el('span', { className: 'sub', title: 'providerRestaurantId' }, store.providerRestaurantId)),
      el('td', { className: 'platform' }, badge(store.provider, 'info')),
      el('td', { className: 'store-state' }, storeStateBadge(store.state, store.until), store.platformReason ? el('span', { className: 'sub' }, store.platformReason) : null),
      el(
        'td',
        {},
        store.expectedState ? badge(store.expectedState, 'neutral') : el('span', { className: 'sub' }, 'nothing asked'),
        differs ? el('span', { className: 'sub' }, 'changed by the platform') : null,
      ),
      el('td', { className: 'reported' }, timeEl(store.stateAt), el('span', { className: 'sub' }, store.detectedBy === 'platform_call' ? "the platform's call" : 'read back from the platform')),
      el('td', {}, el('ol', { className: 'history', 'aria-label': 'Earlier states, newest first' }, (store.history || []).slice(1).map((entry) => el('li', { title: entry.timestamp }, entry.state)))),
    );
  }

  function renderStores(freshId) {
    const list = [...stores.values()].sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0));
    const table = $('stores-table');
    table.tBodies[0].replaceChildren(...labelCells(table, list.map((store) => storeRow(store, store.integrationId === freshId))));
    $('stores-empty').hidden = list.length > 0;
  }

  // ---- menu drift (catalog.drift_detected) --------------------------------------------------

  const DRIFT_KIND_TEXT = { price: 'price', name: 'name', status: 'status', added: 'added', removed: 'removed', linked_removed: 'linked product removed' };
  const DRIFT_KIND_TONE = { price: 'warn', name: 'info', status: 'warn', added: 'ok', removed: 'bad', linked_removed: 'bad' };

  function driftValue(value) {
    return value === null || value === undefined ? el('span', { className: 'drift-none', title: 'none' }, '—') : el('span', { className: 'drift-value' }, String(value));
  }

  function driftRow(report, change, fresh) {
    return el(
      'tr',
      { 'data-drift-id': report.driftEventId, 'data-kind': change.kind, 'data-product': change.platformProductId, className: fresh ? 'fresh' : undefined },
      el('td', { className: 'platform' }, badge(report.provider, 'info'), el('span', { className: 'sub', title: 'providerRestaurantId' }, `store ${report.providerRestaurantId}`)),
      el(
        'td',
        { className: 'id product' },
        change.productCode ? el('span', { title: 'productCode' }, change.productCode) : el('span', { className: 'sub' }, 'not linked'),
        el('span', { className: 'sub', title: 'platformProductId' }, change.platformProductId),
      ),
      el('td', { className: 'kind' }, badge(DRIFT_KIND_TEXT[change.kind] || change.kind, DRIFT_KIND_TONE[change.kind] || 'neutral')),
      el('td', { className: 'before-after' }, driftValue(change.before), ' → ', driftValue(change.after)),
      el('td', { className: 'found' }, timeEl(report.detectedAt)),
    );
  }

  /** Found latest first, as /api/catalog-drift lists them (a late report in its place); one row per difference. */
  function renderDrift(freshId) {
    const newestFirst = (a, b) => Date.parse(b.detectedAt) - Date.parse(a.detectedAt) || (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0);
    const list = [...drifts.values()].sort(newestFirst);
    const table = $('drift-table');
    const rows = list.flatMap((report) => report.changes.map((change) => driftRow(report, change, report.driftEventId === freshId)));
    table.tBodies[0].replaceChildren(...labelCells(table, rows));
    $('drift-empty').hidden = list.length > 0;
  }

  // ---- moving a sent order (as the courier core does) ----------------------------------------

  function showMoveResult(ok, text) {
    const result = $('move-result');
    result.className = `result ${ok ? 'ok' : 'bad'}`;
    result.replaceChildren(el('p', {}, text));
  }

  async function moveOrder(orderId, body, buttons) {
    buttons.forEach((button) => (button.disabled = true));
    try {
      const response = await fetch(`/api/orders/${encodeURIComponent(orderId)}/moves`, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) return showMoveResult(false, `Order ${orderId}: ${answer.code || `HTTP ${response.status}`}. ${answer.detail || ''}`);
      const steps = (answer.steps || []).map((step) => (step.httpStatus === 200 ? `${step.trigger} → ${step.status}` : `${step.trigger} refused (${step.code || step.httpStatus})`));
      const refused = (answer.steps || []).some((step) => step.httpStatus !== 200);
      showMoveResult(!refused, `Order ${orderId}: ${steps.length ? steps.join(', ') : 'nothing to do'}. The webhooks arrive below.`);
    } catch (error) {
      showMoveResult(false, `Could not reach the receiver: ${error.message}`);
    } finally {
      buttons.forEach((button) => (button.disabled = false));
    }
  }

  function moveCell(order) {
    const accepted = order.response && order.response.status >= 200 && order.response.status < 300 && order.yemekKuryeOrderId;
    if (!movesEnabled || !accepted || FINAL.has(order.status)) return el('td', {}, '');
    const next = el('button', { type: 'button', className: 'small', 'data-move': 'next' }, 'Next step');
    const deliver = el('button', { type: 'button', className: 'small', 'data-move': 'deliver' }, 'Deliver');
    const reasonId = `reason-${order.sendId}`;
    const chosen = chosenReasons.get(order.sendId) || CANCEL_REASONS[0];
    const reason = el('select', { id: reasonId, 'aria-label': `Cancel reason for order ${order.orderId}` }, CANCEL_REASONS.map((id) => el('option', { value: id, selected: id === chosen }, id)));
    reason.addEventListener('change', () => chosenReasons.set(order.sendId, reason.value));
    const cancel = el('button', { type: 'button', className: 'small secondary', 'data-move': 'cancel' }, 'Cancel');
    const buttons = [next, deliver, cancel];
    next.addEventListener('click', () => moveOrder(order.orderId, { action: 'next' }, buttons));
    deliver.addEventListener('click', () => moveOrder(order.orderId, { action: 'deliver' }, buttons));
    cancel.addEventListener('click', () => moveOrder(order.orderId, { action: 'cancel', cancelReasonId: reason.value }, buttons));
    return el('td', { className: 'moves' }, el('div', { className: 'move-buttons' }, next, deliver), el('div', { className: 'move-cancel' }, reason, cancel));
  }

  function upsertOrder(order) {
    orders.set(order.sendId, order);
  }

  // ---- webhooks ------------------------------------------------------------------------------

  function describeWebhook(webhook) {
    if (webhook.event === CATALOG_DRIFT && webhook.driftChanges) {
      return [badge(`${webhook.driftChanges} menu ${webhook.driftChanges === 1 ? 'change' : 'changes'}`, 'warn'), webhook.timestamp ? el('span', { className: 'sub' }, timeEl(webhook.timestamp)) : null];
    }
    if (webhook.event === AVAILABILITY && webhook.state) {
      return [...storeStateBadge(webhook.state, webhook.until), webhook.timestamp ? el('span', { className: 'sub' }, timeEl(webhook.timestamp)) : null];
    }
    if (webhook.outcome === 'rejected' && !webhook.orderId) return '—';
    if (webhook.kind === 'cancel') {
      return [badge('CANCELED', 'bad'), el('span', { className: 'sub' }, [webhook.cancelReasonId, webhook.reason, webhook.canceledBy && `by ${webhook.canceledBy}`].filter(Boolean).join(' · '))];
    }
    return [
      badge(webhook.status || '?', STATUS_TONE[webhook.status] || 'info'),
      webhook.previousStatus ? el('span', { className: 'sub' }, `from ${webhook.previousStatus}`) : null,
      webhook.timestamp ? el('span', { className: 'sub' }, timeEl(webhook.timestamp)) : null,
    ];
  }

  function verdictCell(verdict) {
    return el('td', {}, badge(verdict.state, VERDICT_TONE[verdict.state] || 'neutral', verdict.detail), el('span', { className: 'sub' }, verdict.detail));
  }

  function webhookRow(webhook, fresh) {
    return el(
      'tr',
      { 'data-webhook-id': webhook.webhookId, 'data-outcome': webhook.outcome, className: fresh ? 'fresh' : undefined },
      el('td', {}, timeEl(webhook.receivedAt), webhook.attempt ? el('span', { className: 'sub' }, `attempt ${webhook.attempt}`) : null),
      el('td', {}, webhook.kind === 'cancel' ? 'cancel' : 'status', el('span', { className: 'sub' }, webhook.event || '')),
      (webhook.event === AVAILABILITY || webhook.event === CATALOG_DRIFT) && webhook.integrationId
        ? el('td', { className: 'id' }, el('span', { className: 'store-ref' }, `store ${webhook.providerRestaurantId || ''}`), el('span', { className: 'sub', title: 'integrationId' }, webhook.integrationId), providerText(webhook.provider))
        : el('td', { className: 'id' }, webhook.orderId || '—', providerText(webhook.provider)),
      el('td', {}, describeWebhook(webhook)),
      el(
        'td',
        {},
        badge(webhook.outcome, OUTCOME_TONE[webhook.outcome] || 'neutral'),
        el('span', { className: 'sub' }, `HTTP ${webhook.httpStatus}`),
        webhook.note && webhook.outcome !== 'applied' ? el('span', { className: 'sub' }, webhook.note) : null,
      ),
      verdictCell(webhook.verdicts.serviceSignature),
      verdictCell(webhook.verdicts.standardWebhooks),
      el('td', { className: 'id' }, webhook.webhookId),
    );
  }

  function renderWebhooks(freshId) {
    const list = [...webhooks.values()].sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0));
    const table = $('webhooks-table');
    table.tBodies[0].replaceChildren(...labelCells(table, list.map((webhook) => webhookRow(webhook, webhook.receiptId === freshId))));
    $('webhooks-empty').hidden = list.length > 0;
  }

  function announce(webhook) {
    if (webhook.event === CATALOG_DRIFT && webhook.driftChanges) {
      $('announcer').textContent = `Webhook received: ${webhook.driftChanges} menu ${webhook.driftChanges === 1 ? 'change' : 'changes'} on ${webhook.provider || 'a platform'} for store ${webhook.providerRestaurantId || ''}, ${webhook.outcome}, signature ${webhook.verdicts.serviceSignature.state}.`;
      return;
    }
    if (webhook.event === AVAILABILITY && webhook.state) {
      $('announcer').textContent = `Webhook received: store ${webhook.providerRestaurantId || ''} on ${webhook.provider || 'a platform'} is ${webhook.state}, ${webhook.outcome}, signature ${webhook.verdicts.serviceSignature.state}.`;
      return;
    }
    const what = webhook.kind === 'cancel' ? 'cancellation' : `status ${webhook.status || ''}`;
    $('announcer').textContent = `Webhook received: ${what} for order ${webhook.orderId || 'unknown'}, ${webhook.outcome}, signature ${webhook.verdicts.serviceSignature.state}.`;
  }

  // ---- loading and the live stream ---------------------------------------------------------

  // Ids the stream delivered while the lists were being fetched: their streamed version is newer.
  const streamedDuringLoad = new Set();

  async function loadLists() {
    streamedDuringLoad.clear();
    const [orderList, webhookList, trackedList, storeList, driftList] = await Promise.all([
      getJson('/api/orders'),
      getJson('/api/webhooks'),
      getJson('/api/tracked-orders'),
      getJson('/api/store-status'),
      getJson('/api/catalog-drift'),
    ]);
    const keptOrders = [...streamedDuringLoad].filter((id) => orders.has(id)).map((id) => orders.get(id));
    const keptTracked = [...streamedDuringLoad].filter((id) => tracked.has(id)).map((id) => tracked.get(id));
    const keptStores = [...streamedDuringLoad].filter((id) => stores.has(id)).map((id) => stores.get(id));
    const keptDrifts = [...streamedDuringLoad].filter((id) => drifts.has(id)).map((id) => drifts.get(id));
    orders.clear();
    orderList.data.forEach(upsertOrder);
    keptOrders.forEach(upsertOrder);
    tracked.clear();
    for (const order of [...trackedList.data, ...keptTracked]) tracked.set(order.yemekKuryeOrderId, order);
    stores.clear();
    for (const store of [...storeList.data, ...keptStores]) stores.set(store.integrationId, store);
    drifts.clear();
    for (const report of [...driftList.data, ...keptDrifts]) drifts.set(report.driftEventId, report);
    for (const webhook of webhookList.data) webhooks.set(webhook.receiptId, webhook);
    renderOrders();
    renderTracked();
    renderStores();
    renderDrift();
    renderWebhooks();
  }

  function setStreamState(text, tone) {
    const node = $('stream-state');
    node.textContent = text;
    node.className = `badge badge-${tone}`;
  }

  function connect() {
    const source = new EventSource('/api/events');
    source.addEventListener('ready', () => {
      setStreamState('live', 'ok');
      // Whatever happened while disconnected is fetched again; the stream carries what follows.
      loadLists().catch((error) => console.error(error));
    });
    source.addEventListener('webhook', (message) => {
      const webhook = JSON.parse(message.data);
      webhooks.set(webhook.receiptId, webhook);
      streamedDuringLoad.add(webhook.receiptId);
      renderWebhooks(webhook.receiptId);
      announce(webhook);
    });
    source.addEventListener('order', (message) => {
      const order = JSON.parse(message.data);
      upsertOrder(order);
      streamedDuringLoad.add(order.sendId);
      renderOrders(order.sendId);
    });
    source.addEventListener('track', (message) => {
      const order = JSON.parse(message.data);
      tracked.set(order.yemekKuryeOrderId, order);
      streamedDuringLoad.add(order.yemekKuryeOrderId);
      renderTracked(order.yemekKuryeOrderId);
    });
    source.addEventListener('store', (message) => {
      const store = JSON.parse(message.data);
      stores.set(store.integrationId, store);
      streamedDuringLoad.add(store.integrationId);
      renderStores(store.integrationId);
    });
    source.addEventListener('drift', (message) => {
      const report = JSON.parse(message.data);
      drifts.set(report.driftEventId, report);
      streamedDuringLoad.add(report.driftEventId);
      renderDrift(report.driftEventId);
    });
    source.addEventListener('error', () => setStreamState(source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…', 'warn'));
  }

  // ---- sending a test order ------------------------------------------------------------------

  const EDITABLE = ['items', 'subtotal', 'deliveryFee', 'serviceFee', 'discount', 'taxAmount', 'total', 'currency'];

  async function prefillJson() {
    const order = await getJson('/api/orders/default');
    const editable = {};
    for (const field of EDITABLE) if (order[field] !== undefined) editable[field] = order[field];
    const textarea = $('order-json');
    if (!textarea.value) textarea.value = JSON.stringify(editable, null, 2);
  }

  function showJsonError(message) {
    const error = $('order-json-error');
    const textarea = $('order-json');
    error.textContent = message || '';
    error.hidden = !message;
    if (message) textarea.setAttribute('aria-invalid', 'true');
    else textarea.removeAttribute('aria-invalid');
  }

  function showResult(ok, summary, body) {
    const result = $('send-result');
    result.className = `result ${ok ? 'ok' : 'bad'}`;
    result.replaceChildren(el('p', {}, el('strong', {}, summary)), body !== undefined ? el('pre', {}, body) : null);
  }

  async function sendOrder(event) {
    event.preventDefault();
    const custom = $('mode-custom').checked;
    // Always JSON: the receiver refuses other content types (cross-site request forgery).
    const init = { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: '{}' };
    showJsonError('');
    if (custom) {
      try {
        const parsed = JSON.parse($('order-json').value);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The JSON must be an object.');
        init.body = JSON.stringify(parsed);
      } catch (error) {
        showJsonError(`Not sent: ${error.message}`);
        $('order-json').focus();
        return;
      }
    }
    const button = $('send-button');
    button.disabled = true;
    button.textContent = 'Sending…';
    try {
      const response = await fetch('/api/send-order', init);
      const text = await response.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      const orderId = response.headers.get('X-Receiver-Order-Id');
      showResult(response.ok, `The service answered HTTP ${response.status}${orderId ? ` for order ${orderId}` : ''}.`, pretty);
    } catch (error) {
      showResult(false, `Could not reach the receiver: ${error.message}`);
    } finally {
      button.disabled = false;
      button.textContent = 'Send test order';
    }
  }

  function syncMode() {
    $('custom-group').hidden = !$('mode-custom').checked;
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('send-form').addEventListener('submit', sendOrder);
    for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener('change', syncMode);
    syncMode();
    getJson('/api/config')
      .then((config) => {
        renderConfig(config);
        movesEnabled = Boolean(config.orderMoves && config.orderMoves.enabled);
        $('moves-help').textContent = movesEnabled
          ? 'Move an order as the courier core does: "Next step" makes one move of the happy path, "Deliver" all the rest, "Cancel" cancels with the reason chosen. Each move sends its webhook here.'
          : 'What moves an order: the courier core, with POST {pos_url}/internal/orders/{yemekKuryeOrderId}/transitions (see the README). Set SERVICE_INTERNAL_URL and SERVICE_INTERNAL_API_KEY to move orders from this page (the one-machine mode does).';
        renderOrders();
      })
      .catch((error) => console.error(error));
    prefillJson().catch((error) => console.error(error));
    renderOrders();
    renderTracked();
    renderStores();
    renderDrift();
    renderWebhooks();
    connect();
  });
})();
