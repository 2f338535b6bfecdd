// Field schemas the MQTT messages and the station tactic share.
import { z } from 'zod';

/** Name of a port of the module (an RS-485 line or a Modbus TCP link), as configured on the module. */
export const modemPortName = () => z.string().regex(/^[A-Za-z0-9_.:-]{1,32}$/, { error: 'invalid port name' });
/** Modbus unit id (slave address) of a controller on its port. */
export const modbusUnitAddress = () => z.int().min(0).max(255);
