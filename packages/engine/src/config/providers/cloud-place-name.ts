import { z } from 'zod';

/**
 * A name a cloud preset puts into its base URL's host or path (`region`, `resource`, `project`):
 * lowercase letters, digits and inner hyphens, as AWS regions, Azure resources and Google Cloud
 * projects and locations are named, so none can reach another host or path.
 */
export const cloudPlaceName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a name of lowercase letters, digits and hyphens, such as us-east-1');
