declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const SwaggerUIBundle: unknown;
  export default SwaggerUIBundle;
}
