/** The subset of the OpenAPI 3.0 schema object the public interface uses. */
export interface JsonSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  format?: string;
  description?: string;
  enum?: readonly (string | number)[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  nullable?: boolean;
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  discriminator?: { propertyName: string };
  $ref?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  deprecated?: boolean;
}

/** Named schemas referenced with `$ref` (they become `components.schemas` in the OpenAPI document). */
export type SchemaDefs = Record<string, JsonSchema>;

export const REF_PREFIX = '#/components/schemas/';
