// The store the end-to-end test shops in, made once per migrated template database (`medusa exec`):
// a US region paying through the plugin (pp_gateway_crypto), a sales channel with a publishable key,
// a warehouse shipping for free, one product at 19.90 USD, and an admin user.
const { ContainerRegistrationKeys, Modules, ProductStatus } = require("@medusajs/framework/utils");
const {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createStockLocationsWorkflow,
  createUsersWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} = require("@medusajs/medusa/core-flows");

exports.default = async function seed({ container }) {
  const link = container.resolve(ContainerRegistrationKeys.LINK);
  const fulfillment = container.resolve(Modules.FULFILLMENT);
  const auth = container.resolve(Modules.AUTH);

  const {
    result: [channel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web shop" }] } });
  const [store] = await container.resolve(Modules.STORE).listStores();
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: { supported_currencies: [{ currency_code: "usd", is_default: true }], default_sales_channel_id: channel.id },
    },
  });
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: "United States", currency_code: "usd", countries: ["us"], payment_providers: ["pp_gateway_crypto"] }] },
  });

  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "Warehouse", address: { address_1: "1 Main St", city: "Austin", country_code: "US" } }] },
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  });
  let [profile] = await fulfillment.listShippingProfiles({ type: "default" });
  if (!profile) [profile] = await fulfillment.createShippingProfiles([{ name: "Default", type: "default" }]);
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Warehouse delivery",
    type: "shipping",
    service_zones: [{ name: "United States", geo_zones: [{ country_code: "us", type: "country" }] }],
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  });
  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard shipping",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "Free", code: "standard" },
        prices: [
          { currency_code: "usd", amount: 0 },
          { region_id: region.id, amount: 0 },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  });
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [channel.id] } });

  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({ input: { api_keys: [{ title: "Web shop", type: "publishable", created_by: "" }] } });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [channel.id] } });

  await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Gateway T-shirt",
          handle: "gateway-t-shirt",
          status: ProductStatus.PUBLISHED,
          shipping_profile_id: profile.id,
          options: [{ title: "Size", values: ["M"] }],
          variants: [{ title: "M", sku: "GW-TSHIRT-M", options: { Size: "M" }, manage_inventory: false, prices: [{ amount: 19.9, currency_code: "usd" }] }],
          sales_channels: [{ id: channel.id }],
        },
      ],
    },
  });

  const {
    result: [user],
  } = await createUsersWorkflow(container).run({ input: { users: [{ email: process.env.MEDUSA_ADMIN_EMAIL }] } });
  const { authIdentity, error } = await auth.register("emailpass", {
    body: { email: process.env.MEDUSA_ADMIN_EMAIL, password: process.env.MEDUSA_ADMIN_PASSWORD },
  });
  if (error) throw new Error(error);
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } });
};
