await import(process.argv[2]);
globalThis.gc();
setTimeout(() => { globalThis.gc(); const m = process.memoryUsage(); console.log(process.argv[2].split('/').pop(), 'rss', (m.rss/1048576).toFixed(1), 'heapUsed', (m.heapUsed/1048576).toFixed(1), 'heapTotal', (m.heapTotal/1048576).toFixed(1)); }, 300);
