/** The same rule as the server's `federationEndpoint` setting: empty, or an http(s) URL with a host. */
export const FEDERATION_ENDPOINT_PATTERN = /^$|^https?:\/\/[^\s/]+(\/[^\s]*)?$/;
