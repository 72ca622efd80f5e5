import { MqttClient } from 'mqtt/lib/client';
(globalThis as any).x = MqttClient;
