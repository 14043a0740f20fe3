import { ModuleProvider, Modules } from "@medusajs/framework/utils";
import GatewayPaymentProviderService from "./service";

export default ModuleProvider(Modules.PAYMENT, {
  services: [GatewayPaymentProviderService],
});
