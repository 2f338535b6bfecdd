// The offline page in the language the console was last used in (its choice is kept under `lang`).
(function () {
  var WORDS = {
    'en-US': {
      title: 'You are offline',
      text:
        'This page of the console has not been opened on this device before, so it cannot be shown without a ' +
        'network connection. It opens again as soon as the connection is back.',
      retry: 'Try again',
    },
    'zh-CN': {
      title: '当前处于离线状态',
      text: '此设备上尚未打开过控制台的这个页面，没有网络连接时无法显示。网络恢复后即可重新打开。',
      retry: '重试',
    },
    'zh-TW': {
      title: '目前處於離線狀態',
      text: '此裝置上尚未開啟過主控台的這個頁面，沒有網路連線時無法顯示。網路恢復後即可重新開啟。',
      retry: '重試',
    },
    'ru-RU': {
      title: 'Нет подключения к сети',
      text:
        'Эта страница консоли ещё не открывалась на этом устройстве, поэтому без подключения к сети её не ' +
        'показать. Она откроется, как только связь восстановится.',
      retry: 'Повторить',
    },
    'es-ES': {
      title: 'Sin conexión',
      text:
        'Esta página de la consola no se ha abierto antes en este dispositivo, así que no puede mostrarse sin ' +
        'conexión a la red. Se abrirá en cuanto vuelva la conexión.',
      retry: 'Reintentar',
    },
    'tr-TR': {
      title: 'Çevrimdışısınız',
      text:
        'Konsolun bu sayfası bu cihazda daha önce açılmadığı için ağ bağlantısı olmadan gösterilemiyor. Bağlantı ' +
        'geri geldiğinde yeniden açılır.',
      retry: 'Yeniden dene',
    },
  };
  var lang = 'en-US';
  try {
    var stored = localStorage.getItem('lang');
    if (stored && WORDS[stored]) lang = stored;
  } catch {
    // storage blocked: English
  }
  var words = WORDS[lang];
  document.documentElement.lang = lang;
  document.getElementById('offline-title').textContent = words.title;
  document.getElementById('offline-text').textContent = words.text;
  var retry = document.getElementById('offline-retry');
  retry.textContent = words.retry;
  retry.addEventListener('click', function () {
    location.reload();
  });
  // back online: the page asked for opens by itself
  window.addEventListener('online', function () {
    location.reload();
  });
})();
